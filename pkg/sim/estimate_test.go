package sim

import (
	"bytes"
	"testing"

	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/sched"
)

// TestEstimateStudy replays the end-to-end trace with the study wrapped
// around the scheduler: it must not change a single decision, and it must
// score predictions made ahead of real starts.
func TestEstimateStudy(t *testing.T) {
	plain := &bytes.Buffer{}
	if _, err := Run(e2eOptions(t, sched.PolicyLoam, plain)); err != nil {
		t.Fatal(err)
	}
	studied := &bytes.Buffer{}
	o := e2eOptions(t, sched.PolicyLoam, studied)
	st := NewEstimateStudy(o.Config, o.Nodes, estimate.Config{})
	o.NewScheduler = st.Wrap(nil)
	if _, err := Run(o); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), studied.Bytes()) {
		t.Fatal("the study changed the scheduler's decisions")
	}
	rep := st.Report()
	if rep.Episodes == 0 || len(rep.Horizons) != 3 {
		t.Fatalf("report %+v", rep)
	}
	h := rep.Horizons[0]
	if h.LimitByActual.N == 0 || h.LimitByActual.N != h.HistByActual.N {
		t.Errorf("1 h by outcome scores both estimators on the same samples: %+v", h)
	}
	if st.ModelStats().Finished == 0 {
		t.Errorf("the model learned no job end")
	}
	var table bytes.Buffer
	if err := WriteEstimateTable(&table, []string{"loam"}, []EstimateReport{rep}); err != nil || !bytes.Contains(table.Bytes(), []byte("outcome")) {
		t.Errorf("table: %v\n%s", err, table.String())
	}
}
