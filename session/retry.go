package session

// WaitsToRetry reports whether a prompt (or call) refused with -32042
// still waits on its URL flows to be retried: false once every flow
// completed (Changes.Retry or Send said so) or one of them was declined,
// cancelled or dropped (it will not be retried). A front end with no one
// to retry it by hand ends there.
func (c *Core) WaitsToRetry() bool { return c.legacyWaiting != nil }
