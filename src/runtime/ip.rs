//! The IP part of the instance id.
//!
//! ElasticJob takes the first up, non-loopback IPv4 address of a non-virtual interface. ejctl
//! asks the kernel which local address it would use to reach a public address (a UDP "connect"
//! sends nothing), which picks the address of the default route's interface — the same answer
//! on a typical host — and falls back to 127.0.0.1 when there is no route. `[instance] ip`
//! overrides the choice (for multi-homed hosts and containers).

use std::net::{IpAddr, Ipv4Addr, UdpSocket};

/// The detected IPv4 address of this host.
pub fn detect_ip() -> String {
    let probe = || -> std::io::Result<IpAddr> {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        // TEST-NET-1 (RFC 5737): never routed to a real host, and no packet is sent anyway.
        socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        Ok(socket.local_addr()?.ip())
    };
    match probe() {
        Ok(IpAddr::V4(ip)) if !ip.is_loopback() && !ip.is_unspecified() => ip.to_string(),
        _ => {
            tracing::warn!("cannot detect this host's IPv4 address; using 127.0.0.1 (set [instance] ip)");
            Ipv4Addr::LOCALHOST.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn detected_ip_is_ipv4() {
        assert!(crate::registry::path::is_ipv4(&super::detect_ip()));
    }
}
