package browser

import (
	"net/url"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
)

// This file gives realms that lack them the URL and URLSearchParams
// interfaces, far enough for WPT helpers (get-host-info, dispatcher.js,
// reading query parameters, building cross-origin URLs): parsing with a
// base, the component getters and setters, origin, and a searchParams
// object kept in sync with search. Parsing is net/url's, with the WHATWG
// URL rules that matter for http(s) URLs on top (lower-case scheme and
// host, default ports dropped, "/" for an empty path).

// specialPorts are the default ports of the special schemes.
var specialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}

// parseURLRecord parses input against base ("" for none) into the parts
// the JavaScript URL class keeps; ok is false for a failure.
func parseURLRecord(input, base string) (map[string]string, bool) {
	input = strings.Trim(input, "\x00\t\n\f\r ")
	var u *url.URL
	var err error
	if base != "" {
		b, berr := url.Parse(base)
		if berr != nil || b.Scheme == "" {
			return nil, false
		}
		var ref *url.URL
		ref, err = url.Parse(input)
		if err == nil {
			u = b.ResolveReference(ref)
		}
	} else {
		u, err = url.Parse(input)
	}
	if err != nil || u == nil || u.Scheme == "" {
		return nil, false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if specialPorts[scheme] == port {
		port = ""
	}
	_, special := specialPorts[scheme]
	if special && host == "" {
		return nil, false
	}
	path := u.EscapedPath()
	if u.Opaque != "" {
		path = u.Opaque
	} else if special && path == "" {
		path = "/"
	}
	search := ""
	if u.RawQuery != "" || u.ForceQuery {
		search = "?" + u.RawQuery
	}
	hash := ""
	if frag := u.EscapedFragment(); frag != "" {
		hash = "#" + frag
	}
	user, pass := "", ""
	if u.User != nil {
		user = u.User.Username()
		pass, _ = u.User.Password()
	}
	hostPort := host
	if strings.Contains(host, ":") {
		hostPort = "[" + host + "]"
	}
	if port != "" {
		hostPort += ":" + port
	}
	href := scheme + ":"
	origin := "null"
	if u.Opaque == "" && (u.Host != "" || special) {
		href += "//"
		if user != "" || pass != "" {
			href += url.PathEscape(user)
			if pass != "" {
				href += ":" + url.PathEscape(pass)
			}
			href += "@"
		}
		href += hostPort
		if special && scheme != "ftp" {
			origin = scheme + "://" + hostPort
		}
	}
	href += path + search + hash
	return map[string]string{
		"href": href, "protocol": scheme + ":", "username": user, "password": pass,
		"host": hostPort, "hostname": host, "port": port, "pathname": path,
		"search": search, "hash": hash, "origin": origin,
	}, true
}

// urlClasses is the JavaScript of URL and URLSearchParams; it receives the
// Go parser and defines the classes on the global object when missing.
const urlClasses = `(function (parse, global) {
  "use strict";
  const decode = s => decodeURIComponent(s.replace(/\+/g, " "));
  const encode = s => encodeURIComponent(s).replace(/%20/g, "+")
    .replace(/[!'()~]/g, c => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  const owners = new WeakMap();
  class URLSearchParams {
    constructor(init = "") {
      this._list = [];
      if (init instanceof URLSearchParams) {
        this._list = init._list.map(p => [p[0], p[1]]);
      } else if (typeof init === "object" && init !== null) {
        if (typeof init[Symbol.iterator] === "function") {
          for (const pair of init) {
            const p = [...pair];
            if (p.length !== 2) throw new TypeError("Failed to construct 'URLSearchParams': Sequence initializer must only contain pair elements");
            this._list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
        }
      } else {
        this._parse(String(init));
      }
    }
    _parse(s) {
      this._list = [];
      if (s.startsWith("?")) s = s.slice(1);
      for (const part of s.split("&")) {
        if (part === "") continue;
        const i = part.indexOf("=");
        const k = i < 0 ? part : part.slice(0, i), v = i < 0 ? "" : part.slice(i + 1);
        this._list.push([decode(k), decode(v)]);
      }
    }
    _update() { const u = owners.get(this); if (u) u._setSearchFromParams(); }
    get size() { return this._list.length; }
    append(k, v) { this._list.push([String(k), String(v)]); this._update(); }
    delete(k, v) {
      k = String(k);
      this._list = this._list.filter(p => !(p[0] === k && (v === undefined || p[1] === String(v))));
      this._update();
    }
    get(k) { k = String(k); const p = this._list.find(p => p[0] === k); return p ? p[1] : null; }
    getAll(k) { k = String(k); return this._list.filter(p => p[0] === k).map(p => p[1]); }
    has(k, v) { k = String(k); return this._list.some(p => p[0] === k && (v === undefined || p[1] === String(v))); }
    set(k, v) {
      k = String(k); v = String(v);
      const i = this._list.findIndex(p => p[0] === k);
      if (i < 0) { this._list.push([k, v]); } else {
        this._list[i][1] = v;
        this._list = this._list.filter((p, j) => j <= i || p[0] !== k);
      }
      this._update();
    }
    sort() { this._list.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0); this._update(); }
    forEach(cb, thisArg) { for (const [k, v] of this._list) cb.call(thisArg, v, k, this); }
    keys() { return this._list.map(p => p[0])[Symbol.iterator](); }
    values() { return this._list.map(p => p[1])[Symbol.iterator](); }
    entries() { return this._list.map(p => [p[0], p[1]])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map(p => encode(p[0]) + "=" + encode(p[1])).join("&"); }
    get [Symbol.toStringTag]() { return "URLSearchParams"; }
  }
  class URL {
    constructor(url, base) {
      if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': 1 argument required, but only 0 present.");
      const r = parse(String(url), base === undefined ? "" : String(base));
      if (!r) throw new TypeError("Failed to construct 'URL': Invalid URL");
      this._r = r;
      this._params = new URLSearchParams(r.search);
      owners.set(this._params, this);
    }
    static canParse(url, base) { return !!parse(String(url), base === undefined ? "" : String(base)); }
    static parse(url, base) { try { return new URL(url, base); } catch (e) { return null; } }
    _reparse(href) {
      const r = parse(href, "");
      if (!r) return;
      this._r = r;
      this._params._parse(r.search);
    }
    _setSearchFromParams() {
      const s = this._params.toString();
      const r = this._r;
      this._reparse(r.href.slice(0, r.href.length - r.search.length - r.hash.length) + (s ? "?" + s : "") + r.hash);
    }
    _rebuild(parts) {
      const p = Object.assign({}, this._r, parts);
      const auth = p.username || p.password ? p.username + (p.password ? ":" + p.password : "") + "@" : "";
      const authority = this._r.origin !== "null" || this._r.host ? "//" + auth + p.host : "";
      this._reparse(p.protocol + authority + p.pathname + p.search + p.hash);
    }
    get href() { return this._r.href; }
    set href(v) {
      const r = parse(String(v), "");
      if (!r) throw new TypeError("Failed to set the 'href' property on 'URL': Invalid URL");
      this._r = r; this._params._parse(r.search);
    }
    get origin() { return this._r.origin; }
    get protocol() { return this._r.protocol; }
    set protocol(v) { v = String(v); this._rebuild({protocol: v.endsWith(":") ? v : v + ":"}); }
    get username() { return this._r.username; }
    set username(v) { this._rebuild({username: String(v)}); }
    get password() { return this._r.password; }
    set password(v) { this._rebuild({password: String(v)}); }
    get host() { return this._r.host; }
    set host(v) { this._rebuild({host: String(v)}); }
    get hostname() { return this._r.hostname; }
    set hostname(v) { this._rebuild({host: String(v) + (this._r.port ? ":" + this._r.port : "")}); }
    get port() { return this._r.port; }
    set port(v) { v = String(v); this._rebuild({host: this._r.hostname + (v ? ":" + v : "")}); }
    get pathname() { return this._r.pathname; }
    set pathname(v) { v = String(v); this._rebuild({pathname: v.startsWith("/") ? v : "/" + v}); }
    get search() { return this._r.search === "?" ? "" : this._r.search; }
    set search(v) { v = String(v); this._rebuild({search: v === "" ? "" : (v.startsWith("?") ? v : "?" + v)}); }
    get searchParams() { return this._params; }
    get hash() { return this._r.hash === "#" ? "" : this._r.hash; }
    set hash(v) { v = String(v); this._rebuild({hash: v === "" ? "" : (v.startsWith("#") ? v : "#" + v)}); }
    toString() { return this._r.href; }
    toJSON() { return this._r.href; }
    get [Symbol.toStringTag]() { return "URL"; }
  }
  for (const [name, C] of [["URL", URL], ["URLSearchParams", URLSearchParams]]) {
    if (!(name in global)) {
      Object.defineProperty(global, name, {value: C, writable: true, configurable: true, enumerable: false});
    }
  }
})`

// urlProgram is urlClasses compiled once (as RunString would: no script
// name, non-strict) for every realm.
var urlProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("", urlClasses, false) })

// installURL defines URL and URLSearchParams on the realm's global object
// when the realm does not have them. It runs on the realm's event loop.
func installURL(s *Browser, realm *bindings.Realm) error {
	vm := realm.Runtime()
	fn, err := vm.RunProgram(urlProgram())
	if err != nil {
		return err
	}
	call, ok := goja.AssertFunction(fn)
	if !ok {
		return nil
	}
	parse := vm.ToValue(s.native(func(c goja.FunctionCall) goja.Value {
		r, ok := parseURLRecord(c.Argument(0).String(), c.Argument(1).String())
		if !ok {
			return goja.Null()
		}
		o := vm.NewObject()
		for k, v := range r {
			_ = o.Set(k, v)
		}
		return o
	}))
	_, err = call(goja.Undefined(), parse, realm.Global())
	return err
}
