package server

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// Trusted proxies. Behind a reverse proxy or load balancer every request comes from the proxy's
// address, so every per-address rule (request and upload limits, bodies read at once) would put
// the whole world in one bucket. With Options.TrustedProxies the client's address is taken from
// X-Forwarded-For when, and only when, the peer is one of those proxies: the rightmost hop that
// is not a trusted proxy, as each proxy appends the address it received the request from.
// Anything left of that hop was written by the client and is ignored. Without trusted proxies
// forwarding headers are ignored: anyone can set them.

// ParseTrustedProxies reads `iomark serve --trusted-proxy` values: CIDR ranges (10.0.0.0/8,
// fd00::/8) or single addresses, each value possibly a comma-separated list.
func ParseTrustedProxies(values []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range values {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			if p, err := netip.ParsePrefix(f); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("--trusted-proxy %q: give a CIDR range such as 10.0.0.0/8 or an address such as 127.0.0.1", f)
			}
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out, nil
}

type clientKeyCtx struct{}

// peerIP is the address the connection comes from (an IPv4-mapped IPv6 address as IPv4).
func peerIP(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// resolveClient is the client's address: the peer, or behind trusted proxies the rightmost
// untrusted hop of X-Forwarded-For. A hop that is not an address ends the walk at the last
// trusted one, which then counts as the client.
func (s *Server) resolveClient(r *http.Request) netip.Addr {
	a := peerIP(r)
	if len(s.opts.TrustedProxies) == 0 || !s.trusted(a) {
		return a
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return a
		}
		a = hop.Unmap()
		if !s.trusted(a) {
			return a
		}
	}
	return a
}

// withClient keeps the resolved client address in the request for clientIP.
func withClient(r *http.Request, a netip.Addr) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), clientKeyCtx{}, a))
}
