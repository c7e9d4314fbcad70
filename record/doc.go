// Package record is the recorded form of a session: the events and their
// kinds with the info each carries, the [Log] and its subscribers, the
// [Recorder] and the session file's [Header], reading a file back with its
// index ([File]), the export [Spool], the masking of secrets ([Redactor])
// with its [DigestKey], and a target's configuration [Identity].
//
// It knows nothing of how a server is reached: the live connection in
// package session writes events here, and fold, replay, report and render
// read them without importing the connection, its SDK or OAuth.
package record
