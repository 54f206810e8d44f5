package web

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed templates/*.html static/style.css
var files embed.FS

// Prefix is where the dashboard is mounted.
const Prefix = "/ui/"

// cookieName holds the token in the browser.
const cookieName = "loam_dashboard"

// Server serves the dashboard.
type Server struct {
	src    Source
	tokens *Tokens
	tmpl   *template.Template
	css    []byte
}

// New returns a dashboard over src whose tokens tokens verifies.
func New(src Source, tokens *Tokens) *Server {
	t := template.Must(template.New("").Funcs(funcs).ParseFS(files, "templates/*.html"))
	css, _ := files.ReadFile("static/style.css")
	return &Server{src: src, tokens: tokens, tmpl: t, css: css}
}

// page is what every template gets.
type page struct {
	Title   string
	Active  string
	Cluster string
	Viewer  Viewer
	Now     time.Time
	Span    time.Duration
	Spans   []time.Duration
	Body    any
}

// spans offered on the history pages.
var spans = []time.Duration{6 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 90 * 24 * time.Hour}

// ServeHTTP serves the pages under Prefix.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the dashboard is read-only", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, Prefix)
	if name == "static/style.css" {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.Write(s.css)
		return
	}
	if tok := r.URL.Query().Get("token"); tok != "" {
		s.login(w, r, tok)
		return
	}
	v, ok := s.viewer(r)
	if !ok {
		s.render(w, http.StatusUnauthorized, "login", &page{Title: "Sign in", Cluster: s.src.ClusterName(), Now: s.src.Now()})
		return
	}
	s.serve(w, r, name, v)
}

// serve renders the page name for v.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, name string, v Viewer) {
	p := &page{Cluster: s.src.ClusterName(), Viewer: v, Now: s.src.Now(), Spans: spans}
	p.Span = parseSpan(r.URL.Query().Get("span"), 7*24*time.Hour)
	switch name {
	case "", "overview":
		p.Title, p.Active, p.Body = "Cluster now", "overview", s.src.Overview(v)
	case "queue":
		f := QueueFilter{Partition: r.URL.Query().Get("partition"), User: r.URL.Query().Get("user")}
		p.Title, p.Active, p.Body = "Queue", "queue", s.src.Queue(v, f)
	case "quotas":
		p.Title, p.Active, p.Body = "Quota utilization", "quotas", s.src.Quotas(v, p.Span)
	case "waits":
		p.Title, p.Active, p.Body = "Wait times", "waits", s.src.Waits(v, p.Span)
	case "preemptions":
		p.Title, p.Active, p.Body = "Preemptions", "preemptions", s.src.Preemptions(v, p.Span)
	case "fragmentation":
		p.Span = parseSpan(r.URL.Query().Get("span"), 24*time.Hour)
		p.Title, p.Active, p.Body = "Fragmentation", "fragmentation", s.src.Fragmentation(v, p.Span)
	case "reservations":
		p.Title, p.Active, p.Body = "Reservations", "reservations", s.src.Reservations(v)
	case "suggestions":
		if !v.Admin {
			p.Title, p.Active = "Suggestions", "suggestions"
			s.render(w, http.StatusForbidden, "forbidden", p)
			return
		}
		p.Title, p.Active, p.Body = "Suggestions", "suggestions", s.src.Suggestions(v)
	case "logout":
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: Prefix, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, Prefix, http.StatusSeeOther)
		return
	default:
		p.Title = "Not found"
		s.render(w, http.StatusNotFound, "notfound", p)
		return
	}
	s.render(w, http.StatusOK, p.Active, p)
}

// viewer identifies the caller: the Unix socket's peer, else a token
// from the cookie or an Authorization: Bearer header.
func (s *Server) viewer(r *http.Request) (Viewer, bool) {
	if v, ok := s.src.PeerViewer(r); ok {
		return v, true
	}
	tok := ""
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		tok = strings.TrimPrefix(h, "Bearer ")
	} else if c, err := r.Cookie(cookieName); err == nil {
		tok = c.Value
	}
	if tok == "" || s.tokens == nil {
		return Viewer{}, false
	}
	uid, user, err := s.tokens.Verify(tok, s.src.Now())
	if err != nil {
		return Viewer{}, false
	}
	return s.src.ViewerFor(uid, user), true
}

// login checks a token given in the URL, keeps it in a cookie and
// redirects to the same page without it, so it does not stay in the
// address bar or the history.
func (s *Server) login(w http.ResponseWriter, r *http.Request, tok string) {
	if s.tokens == nil {
		http.Error(w, "dashboard tokens are not available", http.StatusServiceUnavailable)
		return
	}
	now := s.src.Now()
	if _, _, err := s.tokens.Verify(tok, now); err != nil {
		p := &page{Title: "Sign in", Cluster: s.src.ClusterName(), Now: now, Body: err.Error()}
		s.render(w, http.StatusUnauthorized, "login", p)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: Prefix, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: int(MaxLifespan.Seconds())})
	q := r.URL.Query()
	q.Del("token")
	target := r.URL.Path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// render executes a page template into a buffer first, so a template
// error never leaves half a page.
func (s *Server) render(w http.ResponseWriter, status int, name string, p *page) {
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, p); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// parseSpan reads "6h", "24h", "7d", "30d", "90d"; anything else is def.
func parseSpan(s string, def time.Duration) time.Duration {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d > 0 && d <= 3*366 {
			return time.Duration(d) * 24 * time.Hour
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= time.Hour && d <= 3*366*24*time.Hour {
		return d
	}
	return def
}
