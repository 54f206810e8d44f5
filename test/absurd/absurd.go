package absurd

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Kind is one way of filling every field of a request.
type Kind int

// The kinds, in the order Kinds lists them. Zero comes first: a route that
// refuses the zero body's shape takes none of that type.
const (
	Zero     Kind = iota // every field present and zero
	Negative             // the most negative value where signed, 1 where not, "-1"
	Maximal              // the largest value of each type, "4294967296"
	Huge                 // 64 KiB strings
	Weird                // strings of NUL, non-UTF-8 bytes and wildcards
	Many                 // lists of 100,000 elements
)

// Kinds lists every Kind.
var Kinds = []Kind{Zero, Negative, Maximal, Huge, Weird, Many}

func (k Kind) String() string {
	return [...]string{"zero", "negative", "maximal", "huge", "weird", "many"}[k]
}

// Body is the JSON of a value of v's type filled as kind says.
func Body(v any, kind Kind) []byte {
	data, err := json.Marshal(value(reflect.TypeOf(v), kind, 0))
	if err != nil {
		panic(err) // value builds only what JSON encodes
	}
	return data
}

// Fields calls f once for every JSON field of struct v, the fields of
// nested structs included ("update.time_limit"), and every kind, with v as JSON
// whose one field holds that kind's value: requests valid but for one
// absurd field, which reach deeper than bodies all absurd.
func Fields(v any, f func(field string, kind Kind, body []byte)) {
	base, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	names := map[string]reflect.Type{}
	collect(reflect.TypeOf(v), "", 0, names)
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, name := range keys {
		for _, kind := range Kinds {
			var m map[string]any
			_ = json.Unmarshal(base, &m)
			set(m, strings.Split(name, "."), value(names[name], kind, 1))
			body, err := json.Marshal(m)
			if err != nil {
				panic(err)
			}
			f(name, kind, body)
		}
	}
}

// set stores v at path in m, making the maps on the way that omitempty
// left out.
func set(m map[string]any, path []string, v any) {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

// collect maps t's JSON field paths to their types, down into nested
// structs.
func collect(t reflect.Type, prefix string, depth int, out map[string]reflect.Type) {
	eachJSONField(t, func(name string, ft reflect.Type) {
		out[prefix+name] = ft
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && ft != timeType && depth < 3 {
			collect(ft, prefix+name+".", depth+1, out)
		}
	})
}

// eachJSONField calls visit with the JSON name and type of each field of
// struct t that encoding/json reads, flattening embedded structs as it
// does and skipping "-" and unexported fields.
func eachJSONField(t reflect.Type, visit func(name string, ft reflect.Type)) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			eachJSONField(f.Type, visit)
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		visit(name, f.Type)
	}
}

// Generic are bodies that are not the shape of any request, by name.
var Generic = map[string][]byte{
	"empty":          nil,
	"null":           []byte("null"),
	"a list":         []byte("[]"),
	"a string":       []byte(`"x"`),
	"a number":       []byte("1e999"),
	"truncated":      []byte(`{"job_ids":[`),
	"NUL bytes":      []byte("\x00\x00"),
	"not UTF-8":      []byte("{\"\xff\":1}"),
	"deeply nested":  []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)),
	"duplicate keys": []byte(`{"job_ids":["1"],"job_ids":["2"]}`),
	"job id 0":       []byte(`{"job_ids":["0"],"job_id":0}`),
	"job id 2^32":    []byte(`{"job_ids":["4294967296"],"job_id":4294967296}`),
	"negative count": []byte(`{"job":{"tasks":-1,"min_nodes":-5}}`),
}

var (
	timeType = reflect.TypeOf(time.Time{})
	rawType  = reflect.TypeOf(json.RawMessage{})
)

// value builds a JSON-ready value of type t.
func value(t reflect.Type, kind Kind, depth int) any {
	if depth > 6 {
		return nil
	}
	switch t {
	case timeType:
		return "1970-01-01T00:00:00Z"
	case rawType:
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return value(t.Elem(), kind, depth)
	case reflect.Struct:
		out := map[string]any{}
		fields(t, kind, depth, out)
		return out
	case reflect.Map:
		return map[string]any{"k": value(t.Elem(), kind, depth+1)}
	case reflect.Slice, reflect.Array:
		return list(t, kind, depth)
	case reflect.String:
		return map[Kind]string{Zero: "", Negative: "-1", Maximal: "4294967296",
			Huge: strings.Repeat("x", 64<<10), Weird: "\x00\xff*ALL,,[]%n", Many: "1"}[kind]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch kind {
		case Zero:
			return 0
		case Negative, Weird:
			return int64(-1) << (t.Bits() - 1)
		}
		return int64(1)<<(t.Bits()-1) - 1
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		switch kind {
		case Zero:
			return 0
		case Negative:
			return 1
		}
		return uint64(math.MaxUint64) >> (64 - t.Bits())
	case reflect.Float32, reflect.Float64:
		return map[Kind]float64{Zero: 0, Negative: -1, Maximal: 1e38, Huge: 1e38, Weird: -1e38, Many: 0.5}[kind]
	case reflect.Bool:
		return kind != Zero
	case reflect.Interface:
		return "x"
	}
	return nil
}

// list builds a slice or array: one element for Zero, 100,000 for Many
// near the top of the request, two otherwise.
func list(t reflect.Type, kind Kind, depth int) any {
	if t.Elem().Kind() == reflect.Uint8 {
		return "AAAA" // bytes travel as base64
	}
	n := 2
	switch {
	case t.Kind() == reflect.Array:
		n = t.Len()
	case kind == Zero:
		n = 1
	case kind == Many && depth < 3:
		n = 100000
	}
	elem := value(t.Elem(), kind, depth+1)
	out := make([]any, n)
	for i := range out {
		out[i] = elem
	}
	return out
}

// fields fills out with t's JSON fields, flattening embedded structs as
// encoding/json does.
func fields(t reflect.Type, kind Kind, depth int, out map[string]any) {
	eachJSONField(t, func(name string, ft reflect.Type) { out[name] = value(ft, kind, depth+1) })
}
