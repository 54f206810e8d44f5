package isolation

import "testing"

func TestValidName(t *testing.T) {
	tests := map[string]struct {
		name    string
		wantErr bool
	}{
		"job under a node":  {name: "loam/gpu01/job_12"},
		"step under a job":  {name: "loam/gpu-01.x/job_12/step_batch"},
		"empty":             {name: "", wantErr: true},
		"absolute":          {name: "/loam/x", wantErr: true},
		"escapes upwards":   {name: "loam/../etc", wantErr: true},
		"double slash":      {name: "loam//x", wantErr: true},
		"trailing slash":    {name: "loam/x/", wantErr: true},
		"space in name":     {name: "loam/a b", wantErr: true},
		"newline injection": {name: "loam/a\nb", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if err := ValidName(tc.name); (err != nil) != tc.wantErr {
				t.Errorf("ValidName(%q) = %v, want error %v", tc.name, err, tc.wantErr)
			}
		})
	}
}
