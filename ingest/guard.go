package ingest

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// ErrBlocked is matched (errors.Is) by every refusal of the address guard:
// a URL whose scheme is not http or https, or a host that is or resolves to
// a loopback, private, link-local, metadata or otherwise reserved address.
var ErrBlocked = errors.New("address not allowed")

// BlockedError is the guard's refusal. It matches [ErrBlocked].
type BlockedError struct {
	// Target is the URL, host or host:port that was refused.
	Target string
	// Reason says which rule refused it, e.g. "loopback address 127.0.0.1".
	Reason string
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("refusing %s: %s", e.Target, e.Reason)
}

// Is reports whether target is ErrBlocked.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }

// guard decides which addresses the fetcher may connect to. It is enforced
// twice: on every URL (the first and every redirect) for literal addresses
// and well-known internal names, and at dial time on every resolved IP, so
// that a name that resolves (or re-resolves, DNS rebinding) to an internal
// address is refused too.
type guard struct {
	// allowPrivate lifts the refusal of loopback, private (RFC 1918, ULA)
	// and shared (CGNAT) addresses; link-local, metadata, multicast,
	// unspecified and reserved addresses stay refused.
	allowPrivate bool
	// exempt lists addresses allowed whatever the rules say. Only tests set
	// it, to stand a test server on one loopback address while another
	// loopback address stays refused.
	exempt []netip.Addr
}

// Always-refused ranges that the netip predicates do not cover.
var reservedPrefixes = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "\"this network\" address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved address"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible IPv6 address"},
	{netip.MustParsePrefix("100::/64"), "discard-only address"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation address"},
}

var (
	cgnat = netip.MustParsePrefix("100.64.0.0/10")
	// NAT64 and 6to4 addresses embed an IPv4 address that a gateway
	// reaches; the embedded address is checked like any other.
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
	// Cloud metadata endpoints (AWS, GCP, Azure, OpenStack use the IPv4
	// one; AWS also serves the IPv6 one, which lies inside fc00::/7).
	metadataAddrs = []netip.Addr{
		netip.MustParseAddr("169.254.169.254"),
		netip.MustParseAddr("fd00:ec2::254"),
	}
)

// check returns why a is refused, or "" when it may be dialled.
func (g *guard) check(a netip.Addr) string {
	a = a.Unmap()
	for _, e := range g.exempt {
		if a == e {
			return ""
		}
	}
	reason, private := classify(a)
	if reason == "" || (private && g.allowPrivate) {
		return ""
	}
	return reason
}

// classify names the range a belongs to when that range is refused, and
// reports whether it is one that AllowPrivate lifts.
func classify(a netip.Addr) (reason string, private bool) {
	switch {
	case !a.IsValid():
		return "invalid address", false
	case a.IsUnspecified():
		return "unspecified address " + a.String(), false
	}
	for _, m := range metadataAddrs {
		if a == m {
			return "cloud metadata address " + a.String(), false
		}
	}
	switch {
	case a.IsLinkLocalUnicast():
		return "link-local address " + a.String(), false
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "multicast address " + a.String(), false
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast address", false
	case a.IsLoopback():
		return "loopback address " + a.String(), true
	case a.IsPrivate():
		return "private address " + a.String(), true
	case cgnat.Contains(a):
		return "shared (CGNAT) address " + a.String(), true
	}
	for _, r := range reservedPrefixes {
		if r.prefix.Contains(a) {
			return r.reason + " " + a.String(), false
		}
	}
	if nat64.Contains(a) || sixTo4.Contains(a) {
		b := a.As16()
		var v4 [4]byte
		if nat64.Contains(a) {
			copy(v4[:], b[12:16])
		} else {
			copy(v4[:], b[2:6])
		}
		if reason, private := classify(netip.AddrFrom4(v4)); reason != "" {
			return reason + " embedded in " + a.String(), private
		}
	}
	return "", false
}

// checkURL refuses what can be refused before any lookup: schemes other
// than http and https, literal addresses the rules refuse, and names that
// always mean this machine or a metadata service. Other names are checked
// at dial time, on the addresses they resolve to.
func (g *guard) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return &BlockedError{Target: u.Redacted(), Reason: fmt.Sprintf("scheme %q is not http or https", u.Scheme)}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return &BlockedError{Target: u.Redacted(), Reason: "no host"}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if reason := g.check(a); reason != "" {
			return &BlockedError{Target: u.Host, Reason: reason}
		}
		return nil
	}
	switch {
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		if !g.allowPrivate {
			return &BlockedError{Target: u.Host, Reason: "loopback name " + host}
		}
	case host == "metadata.google.internal" || host == "metadata":
		return &BlockedError{Target: u.Host, Reason: "cloud metadata name " + host}
	}
	return nil
}

// control is the net.Dialer Control hook: it runs after name resolution,
// once per address about to be connected, so it sees exactly the IP the
// socket will reach.
func (g *guard) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return &BlockedError{Target: address, Reason: "network " + network + " is not TCP"}
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{Target: address, Reason: "unparsable dial address"}
	}
	if reason := g.check(ap.Addr()); reason != "" {
		return &BlockedError{Target: address, Reason: reason}
	}
	return nil
}
