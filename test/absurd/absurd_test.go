package absurd

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

type inner struct {
	N uint8 `json:"n"`
}

type embedded struct {
	E string `json:"e"`
}

type request struct {
	embedded
	ID     uint32            `json:"id"`
	Count  int               `json:"count,omitempty"`
	Names  []string          `json:"names"`
	Inner  *inner            `json:"inner"`
	Labels map[string]string `json:"labels"`
	At     time.Time         `json:"at"`
	Raw    json.RawMessage   `json:"raw"`
	Blob   []byte            `json:"blob"`
	Ratio  float64           `json:"ratio"`
	Skip   string            `json:"-"`
	//lint:ignore U1000 unexported on purpose: the filler must leave it alone
	hidden int
}

// TestBodiesDecodeStrictly: every body of every kind is taken by a strict
// decoder of its type, so the handlers see the values rather than a
// decoding error.
func TestBodiesDecodeStrictly(t *testing.T) {
	for _, kind := range Kinds {
		var got request
		dec := json.NewDecoder(bytes.NewReader(Body(request{}, kind)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
		if kind == Many && len(got.Names) != 100000 {
			t.Errorf("many: %d names", len(got.Names))
		}
		if kind == Maximal && (got.ID != 1<<32-1 || got.Count != 1<<63-1 || got.Inner.N != 255) {
			t.Errorf("maximal: %+v", got)
		}
	}
	n := 0
	Fields(request{ID: 5}, func(field string, kind Kind, body []byte) {
		n++
		var got request
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&got); err != nil {
			t.Errorf("%s %s: %v", field, kind, err)
		}
		if field != "id" && got.ID != 5 || field == "inner.n" && got.Inner == nil {
			t.Errorf("%s %s: the other fields changed: %+v", field, kind, got)
		}
	})
	if want := 11 * len(Kinds); n != want { // ten fields and inner.n
		t.Errorf("Fields made %d bodies, want %d", n, want)
	}
}
