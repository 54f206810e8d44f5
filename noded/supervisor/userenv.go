package supervisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"time"
)

// envMarker brackets the environment in the login shell's output, which
// may also hold whatever the user's profile prints.
const envMarker = "LOAM-USER-ENV-8d1f6a"

// loginEnv loads user's login environment as slurmd does for
// --export=NONE: a login shell (su -) that prints its environment.
func loginEnv(name string, timeout time.Duration) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	script := "echo; echo " + envMarker + "; env -0; echo; echo " + envMarker
	cmd := exec.CommandContext(ctx, "su", "-", name, "-c", script)
	// Only what slurmd gives su: the daemon's own variables (TERM from
	// the shell that started it, say) are not the user's login's.
	cmd.Env = []string{"ENVIRONMENT=BATCH"}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("login environment of %s: %w", name, err)
	}
	return parseEnvOutput(out)
}

// parseEnvOutput finds the NUL-separated environment between the markers
// of the login shell's output.
func parseEnvOutput(out []byte) ([]string, error) {
	_, rest, ok := bytes.Cut(out, []byte("\n"+envMarker+"\n"))
	if !ok {
		return nil, errors.New("login shell printed no environment")
	}
	body, _, ok := bytes.Cut(rest, []byte("\n"+envMarker+"\n"))
	if !ok {
		return nil, errors.New("login shell environment cut short")
	}
	var env []string
	for _, kv := range strings.Split(string(body), "\x00") {
		if strings.Contains(kv, "=") {
			env = append(env, kv)
		}
	}
	return env, nil
}

// minimalEnv is what a login would set when the login shell failed.
func minimalEnv(name string) []string {
	env := []string{"USER=" + name, "LOGNAME=" + name, "PATH=/usr/local/bin:/usr/bin:/bin"}
	if u, err := user.Lookup(name); err == nil {
		env = append(env, "HOME="+u.HomeDir)
	}
	return env
}

func itoa(n int) string { return strconv.Itoa(n) }
