package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// ContentSecurityPolicy is the Content-Security-Policy of every answer. The
// app is Go compiled to wasm, started by wasm_exec.js and boot.js (and by
// worker.js in a Web Worker): scripts only from this origin, and
// 'wasm-unsafe-eval' to compile the wasm, but no eval of JavaScript (vugu's
// renderer helper, which vugu evals, is loaded from vugu.js instead, see
// wasm/web/boot.js); its components set inline style
// attributes (sizes, grid layouts), hence 'unsafe-inline' for styles only;
// data: for the empty favicon, blob: for exported drawings; fetches (the
// wasm, the model list, the weights) only to this origin; no plugins, no
// <base>, no framing.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
	"worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// setSecurityHeaders sets the headers every answer carries: the CSP, no
// MIME sniffing, no framing (X-Frame-Options for browsers without
// frame-ancestors), no referrer, and cross-origin isolation (COOP and
// COEP; the app's resources are all same-origin, and CORP keeps other
// sites from embedding them). Cross-origin isolation also lets the wasm
// use SharedArrayBuffer, which threads need.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Embedder-Policy", "require-corp")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// hostAllowed reports whether a request's Host header names this server:
// one of hosts (compared without the port, case-insensitively). A nil
// hosts allows any. This defeats DNS rebinding, where a page of another
// site gets its own host name to resolve to this server's address.
func hostAllowed(hosts map[string]bool, host string) bool {
	if hosts == nil {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return hosts[normHost(host)]
}

// normHost lower-cases a host name and strips an IPv6 address's brackets.
func normHost(host string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
}

// HostsFor returns the host names a server listening on addr answers to
// (see Options.Hosts): the host of addr, with localhost, 127.0.0.1 and ::1
// for a loopback address, and extra. For an address of every interface
// (0.0.0.0, ::, or no host) it returns only extra, and nil when extra is
// empty: any host is then accepted.
func HostsFor(addr string, extra []string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	var out []string
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		out = append(out, host)
	}
	if Loopback(addr) {
		out = append(out, "localhost", "127.0.0.1", "::1")
	}
	for _, e := range extra {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// hostSet returns the lower-cased host names, nil for none.
func hostSet(hosts []string) map[string]bool {
	if len(hosts) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, h := range hosts {
		m[normHost(h)] = true
	}
	return m
}

// refuseHost answers a request whose Host is not this server's: JSON
// under /api/, as every answer there, plain text elsewhere.
func refuseHost(w http.ResponseWriter, r *http.Request) {
	msg := fmt.Sprintf("host %q is not this server's (see discspan serve --hosts)", r.Host)
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeError(w, http.StatusMisdirectedRequest, msg, 0)
		return
	}
	http.Error(w, msg, http.StatusMisdirectedRequest)
}
