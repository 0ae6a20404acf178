//! The actions a machine without I/O has decided and its driver has not polled yet, in order
//! ([`super::sharder`], [`super::registrar`]).

/// Actions waiting to be polled. It holds no allocation while empty: a worker keeps a machine for
/// every job, and almost all of them are idle.
#[derive(Debug)]
pub struct Outbox<A>(Vec<A>);

impl<A> Default for Outbox<A> {
    fn default() -> Outbox<A> {
        Outbox(Vec::new())
    }
}

impl<A> Outbox<A> {
    /// Adds an action after the others.
    pub fn push(&mut self, action: A) {
        self.0.push(action);
    }

    /// The first action, if any; the room goes when the last is taken.
    pub fn pop(&mut self) -> Option<A> {
        if self.0.is_empty() {
            return None;
        }
        let action = self.0.remove(0);
        if self.0.is_empty() {
            self.0 = Vec::new();
        }
        Some(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_come_out_in_order_and_leave_no_room_behind() {
        let mut out = Outbox::default();
        out.push(1);
        out.push(2);
        assert_eq!(out.pop(), Some(1));
        out.push(3);
        assert_eq!([out.pop(), out.pop(), out.pop()], [Some(2), Some(3), None]);
        assert_eq!(out.0.capacity(), 0);
    }
}
