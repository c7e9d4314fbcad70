package session

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// internalAddr reports whether ip is an address of the user's own
// machine or network, which a remote server must not make mcpwitness
// connect to: loopback (127/8, ::1), private (10/8, 172.16/12,
// 192.168/16, fc00::/7), link-local (169.254/16 with the cloud metadata
// endpoint, fe80::/10), carrier-grade NAT (100.64/10), multicast and
// unspecified (0.0.0.0, ::).
func internalAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
		ip.IsLinkLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return true
	}
	b := ip.As16()
	return ip.Is4() && b[12] == 100 && b[13]&0xc0 == 64
}

// netGuard is the dialer of a session's HTTP connections (MCP and OAuth).
// A connection to the target's own host and port is always made: the
// user chose it. Any other connection (a redirect, an OAuth metadata,
// registration or token URL the server named) to an [internalAddr] is
// refused unless the target itself is on one. The check runs on the
// address connected to, after name resolution, so a host name that
// resolves to such an address (or is rebound to one) does not pass it.
type netGuard struct {
	// target is the host:port the target's URL dials; proxy the proxy's,
	// when one serves the target (the proxy resolves names beyond it).
	target, proxy string
	// internal is the policy: internalAddr, or a test's.
	internal func(netip.AddrPort) bool
	// targetInternal records that a connection to the target reached an
	// internal address.
	targetInternal atomic.Bool
}

// newNetGuard guards the connections of a session with the target u, made
// through proxy (nil for none); internal nil means [internalAddr].
func newNetGuard(u *url.URL, proxy func(*http.Request) (*url.URL, error), internal func(netip.AddrPort) bool) *netGuard {
	g := &netGuard{target: dialAddr(u), internal: internal}
	if g.internal == nil {
		g.internal = func(ap netip.AddrPort) bool { return internalAddr(ap.Addr()) }
	}
	if proxy != nil {
		if p, err := proxy(&http.Request{URL: u}); err == nil && p != nil {
			g.proxy = dialAddr(p)
		}
	}
	return g
}

// dialAddr is the host:port a connection to u dials.
func dialAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// DialContext connects to addr (host:port), checking the address it
// resolves to.
func (g *netGuard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	switch host := strings.ToLower(addr); {
	case host == g.target:
		d.Control = g.noteTarget
	case host == g.proxy:
	default:
		d.Control = func(_, address string, _ syscall.RawConn) error { return g.check(addr, address) }
	}
	return d.DialContext(ctx, network, addr)
}

// noteTarget records whether the target is on an internal address.
func (g *netGuard) noteTarget(_, address string, _ syscall.RawConn) error {
	if ap, err := netip.ParseAddrPort(address); err == nil && g.internal(ap) {
		g.targetInternal.Store(true)
	}
	return nil
}

// check refuses a connection for addr (as asked) to address (as
// resolved) when that is internal and the target is not.
func (g *netGuard) check(addr, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("not connecting to %s: %q is not an IP address", addr, address)
	}
	if !g.internal(ap) || g.targetInternal.Load() {
		return nil
	}
	return &InternalAddrError{Addr: addr, IP: ap.Addr().Unmap().String(), Target: g.target}
}

// InternalAddrError is a connection refused because it would reach the
// user's own machine or network (see [internalAddr]) for a server that is
// not on it: a redirect or OAuth metadata named the address.
type InternalAddrError struct {
	Addr, IP, Target string
}

func (e *InternalAddrError) Error() string {
	return fmt.Sprintf("refused to connect to %s (%s): a loopback, private or link-local address, named by the server at %s, which is not on one; a remote server may not send mcpwitness into your network",
		e.Addr, e.IP, e.Target)
}
