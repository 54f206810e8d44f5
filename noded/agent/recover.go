package agent

import (
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/loamhpc/loam/pkg/api"
)

// recovering answers a request whose handler panics with an internal
// error and logs the panic with its stack as the bug it is; the daemon
// and its jobs go on. Without it net/http would drop the connection and
// print the panic outside the daemon's log.
func (a *Agent) recovering(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.log.WithField("path", r.URL.Path).WithField("panic", fmt.Sprint(v)).
				WithField("stack", string(debug.Stack())).Error("request panicked")
			writeError(w, api.Errorf(api.CodeInternal, "the request failed inside loam-noded; see its log"))
		}()
		h.ServeHTTP(w, r)
	})
}
