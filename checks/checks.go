// Package checks runs the checks a client runs around tools/call and reports
// each as a [mcpwitness/finding.Verdict]: task support, structured content,
// output schema and the input pre-check.
package checks
