// Package history is elicit's memory across sessions: the answers of
// accepted forms (to prefill the same form next time, and to suggest recent
// values) and the sites opened from a URL consent screen.
//
//	h, err := history.Open(history.DefaultDir()) // nil *Store when --no-history: every call is a no-op
//	fp := history.Fingerprint(fields)            // property keys and types, in order
//	prev, ok, err := h.Answers(agent, fp)        // prefill, marked "from last time"; never auto-submit
//	err = h.RememberAnswers(agent, fp, content, isSecret) // after an accepted form only
//	err = h.RecordSite("example.com", time.Now())          // after the user opened a URL
//
// # Storage
//
// Two small JSON files in the state directory, answers.json and
// sites.json, each replaced whole (write to a temporary file, fsync,
// rename) while holding an exclusive flock(2) on the directory's lock file,
// so several elicit processes can write at once and none loses another's
// write; readers need no lock, since rename is atomic. Sizes are bounded
// (MaxForms, MaxSuggestions, MaxSites), so a whole-file rewrite stays a few
// hundred kilobytes at most, and it happens once per answered form.
//
// Why not an embedded database: the data is tiny, written a few times a
// session, and should stay readable and repairable by hand. bbolt
// (go.etcd.io/bbolt v1.5.0), the smallest pure-Go candidate, would add a
// dependency, a binary file format, 1.1 to 1.4 s to a cold build and
// 550 KB to the binary (measured on this project's 2-core machine: a
// program using x/sys and encoding/json, built with the standard library
// already cached, then the same program also opening a bbolt file); and
// bbolt holds a lock on its file for as long as it is open, so two elicit
// sessions could not both keep it open and would have to open and close
// it around every write anyway. SQLite costs more: modernc.org/sqlite
// (pure Go) compiles for minutes on this machine and adds megabytes;
// mattn/go-sqlite3 needs cgo and a C compiler. The flock and the rename
// used here need only golang.org/x/sys/unix, already a dependency: they
// add nothing to the build.
//
// A file that does not parse is never overwritten: every call returns a
// *CorruptError naming it, until the user moves it away or runs
// `elicit history clear`.
package history
