//! The items of one fire that start together on this instance, until the last of them ends: what
//! the trace's closing status row of the fire and its `after` listener phase wait for. One
//! bookkeeping for both, so that they agree on which items belong to the fire, when it is over
//! and which of its items failed.

use std::collections::BTreeSet;

/// One fire's items here; `F` is what a failed item leaves (its reason, or nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group<F> {
    items: Vec<u32>,
    pending: BTreeSet<u32>,
    failed: Vec<(u32, F)>,
}

impl<F> Group<F> {
    /// The fire's `items` start.
    pub fn new(items: &[u32]) -> Group<F> {
        Group { items: items.to_vec(), pending: items.iter().copied().collect(), failed: Vec::new() }
    }

    /// `item` did not start after all (it was found running elsewhere): the fire leaves it out.
    /// True when that was the last item it waited for.
    pub fn leave_out(&mut self, item: u32) -> bool {
        self.items.retain(|&i| i != item);
        self.pending.remove(&item) && self.pending.is_empty()
    }

    /// `item` ended, with what it left when it failed (`None`: it succeeded). True once every
    /// item of the fire has ended; an item that is not the fire's, or ended already, changes
    /// nothing.
    pub fn close(&mut self, item: u32, failure: Option<F>) -> bool {
        if !self.pending.remove(&item) {
            return false;
        }
        if let Some(failure) = failure {
            self.failed.push((item, failure));
        }
        self.pending.is_empty()
    }

    /// The fire's items.
    pub fn items(&self) -> &[u32] {
        &self.items
    }

    /// Its items that failed, in the order they ended, with what each left.
    pub fn failed(&self) -> &[(u32, F)] {
        &self.failed
    }

    /// Its items that failed, in the order they ended.
    pub fn failed_items(&self) -> Vec<u32> {
        self.failed.iter().map(|(item, _)| *item).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fire_is_over_once_its_last_item_ended_and_keeps_its_failures_in_order() {
        let mut group: Group<&str> = Group::new(&[0, 1, 2]);
        assert!(!group.close(1, Some("exit code 1")));
        assert!(!group.close(0, None));
        assert!(!group.close(7, Some("not the fire's")), "an item that is not the fire's");
        assert!(!group.close(1, None), "an item that ended already");
        assert!(group.close(2, Some("killed")));
        assert_eq!(group.items(), [0, 1, 2]);
        assert_eq!(group.failed(), [(1, "exit code 1"), (2, "killed")]);
        assert_eq!(group.failed_items(), [1, 2]);
    }

    #[test]
    fn an_item_left_out_leaves_the_fire_and_may_end_it() {
        let mut group: Group<()> = Group::new(&[0, 1, 2]);
        assert!(!group.leave_out(2));
        assert!(!group.close(0, None));
        assert!(group.leave_out(1), "the last item it waited for");
        assert_eq!(group.items(), [0]);
        assert!(!group.close(1, None), "an item left out is no longer the fire's");
    }
}
