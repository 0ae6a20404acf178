//! HTTP responses as an HTTP job sees them: a loopback server answers the job's request with the
//! input bytes, and the job's outcome is a success or a failure, never a panic or a hang.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use ejctl::exec::RunControl;
use ejctl::exec::context::ShardingContext;
use ejctl::exec::http::{self, HttpSpec};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Harness {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    spec: HttpSpec,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("bind");
        let address = listener.local_addr().expect("address");
        let props = [
            ("http.uri".to_string(), format!("http://{address}/run")),
            ("http.method".to_string(), "GET".to_string()),
            ("http.read.timeout.milliseconds".to_string(), "200".to_string()),
        ]
        .into_iter()
        .collect();
        let spec = HttpSpec::from_props(&props).expect("spec");
        Harness { runtime, listener, spec }
    })
}

fuzz_target!(|data: &[u8]| {
    let h = harness();
    let context = ShardingContext {
        job_name: "fuzz".into(),
        task_id: "fuzz@-@0@-@READY@-@127.0.0.1@-@1".into(),
        sharding_total_count: 1,
        job_parameter: String::new(),
        sharding_item: 0,
        sharding_parameter: None,
    };
    h.runtime.block_on(async {
        let serve = async {
            let (mut socket, _) = h.listener.accept().await.expect("accept");
            let mut buf = [0u8; 4096];
            let _ = tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buf)).await;
            let _ = socket.write_all(data).await;
            let _ = socket.shutdown().await;
        };
        let run = tokio::time::timeout(Duration::from_secs(5), http::run(&h.spec, &context, RunControl::detached()));
        let (outcome, ()) = tokio::join!(run, serve);
        let outcome = outcome.expect("an http run ends within its timeouts");
        assert!(outcome.success || outcome.message.is_some());
    });
});
