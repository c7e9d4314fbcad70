package session

import (
	"context"
	"net/url"

	"mcpwitness/session/oauth"
)

// CheckOpenURL is [oauth.CheckOpenURL], the one policy for every URL
// handed to a browser.
func CheckOpenURL(raw string, targetLoopback bool) (*url.URL, error) {
	return oauth.CheckOpenURL(raw, targetLoopback)
}

// OpenURL is [oauth.OpenURL]: it opens raw in a browser if
// [CheckOpenURL] allows it, and returns the command used.
func OpenURL(ctx context.Context, raw string, targetLoopback bool) (string, error) {
	return oauth.OpenURL(ctx, raw, targetLoopback)
}
