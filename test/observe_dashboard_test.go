//go:build integration

package test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// dashboardPages are the pages screenshotted, with text each must show.
var dashboardPages = []struct{ name, path, want string }{
	{"overview", "/ui/", "GPUs allocated"},
	{"queue", "/ui/queue", "eval0"},
	{"quotas", "/ui/quotas?span=7d", "vision"},
	{"waits", "/ui/waits?span=7d", "jobs started"},
	{"preemptions", "/ui/preemptions?span=7d", "speech"},
	{"fragmentation", "/ui/fragmentation?span=7d", "Share of free GPUs"},
	{"reservations", "/ui/reservations", "Reservations"},
	{"suggestions", "/ui/suggestions", "raise AgingRate of partition batch"},
}

// TestObserveDashboardInChromium renders every dashboard page in headless
// Chromium from loam-ctld's TCP port, signed in with a token from
// scontrol token, and keeps the screenshots in test/artifacts/.
func TestObserveDashboardInChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (.ci/run installs Debian's chromium package)")
	}
	oc := startObserveCluster(t)
	waitCorrected(t, oc, t.TempDir())
	tok := strings.TrimPrefix(strings.TrimSpace(mustTool(t, oc.c, t.TempDir(), "scontrol", "token")), "SLURM_JWT=")
	base := "http://" + oc.d.Addr()
	for _, p := range dashboardPages {
		if code, body := getPage(t, base+p.path, tok); code != 200 || !strings.Contains(body, p.want) {
			t.Errorf("%s: status %d, lacks %q", p.path, code, p.want)
		}
	}
	if code, _ := getPage(t, base+"/ui/", ""); code != http.StatusUnauthorized {
		t.Errorf("/ui/ without a token: %d, want 401", code)
	}
	out, err := filepath.Abs("artifacts")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	for _, p := range dashboardPages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sep := "?"
			if strings.Contains(p.path, "?") {
				sep = "&"
			}
			shot := filepath.Join(out, "observe-"+p.name+".png")
			if err := screenshot(t, browser, base+p.path+sep+"token="+tok, shot); err != nil {
				t.Errorf("%s: %v", p.name, err)
			}
		}()
	}
	wg.Wait()
}

// getPage fetches a page with the token as a bearer credential.
func getPage(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// screenshot renders url in a fresh headless Chromium profile and checks
// that the picture is a page, not a blank or an error screen.
func screenshot(t *testing.T, browser, url, file string) error {
	profile := t.TempDir()
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir="+profile, "--window-size=1360,1500", "--screenshot="+file, url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("chromium: %v\n%s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return fmt.Errorf("chromium did not finish within 60 s")
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("screenshot: %v", err)
	}
	if colors := distinctColors(img); colors < 8 {
		return fmt.Errorf("screenshot %s has %d colours: blank?", file, colors)
	}
	return nil
}

func distinctColors(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 12, g >> 12, bl >> 12}] = true
		}
	}
	return len(seen)
}
