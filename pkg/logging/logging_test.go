package logging

import (
	"testing"

	"github.com/sirupsen/logrus"
)

func TestNew(t *testing.T) {
	cases := map[string]struct {
		level, format string
		wantErr       bool
	}{
		"json at debug":           {level: "debug", format: "json"},
		"text at info":            {level: "info", format: "text"},
		"auto":                    {level: "warn", format: "auto"},
		"an unknown format fails": {level: "info", format: "xml", wantErr: true},
		"an unknown level fails":  {level: "loud", format: "json", wantErr: true},
	}
	for name, tc := range cases {
		log, err := New(tc.level, tc.format)
		switch {
		case tc.wantErr && err == nil:
			t.Errorf("%s: New(%q, %q) succeeded", name, tc.level, tc.format)
		case !tc.wantErr && err != nil:
			t.Errorf("%s: New(%q, %q): %v", name, tc.level, tc.format, err)
		case !tc.wantErr:
			if want, _ := logrus.ParseLevel(tc.level); log.Logger.GetLevel() != want {
				t.Errorf("%s: level %v, want %v", name, log.Logger.GetLevel(), want)
			}
		}
	}
}
