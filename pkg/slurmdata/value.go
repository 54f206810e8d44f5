package slurmdata

// Kind is the type of a Value, as data_t's types.
type Kind int

// The kinds of values.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindDict
)

// Value is one node of a document: a scalar, a list or a dictionary.
// The zero Value is null.
type Value struct {
	kind  Kind
	b     bool
	i     int64
	f     float64
	s     string
	items []Value
	dict  *Dict
}

// Null returns the null value.
func Null() Value { return Value{} }

// Bool returns a boolean value.
func Bool(b bool) Value { return Value{kind: KindBool, b: b} }

// Int returns an integer value.
func Int(i int64) Value { return Value{kind: KindInt, i: i} }

// Float returns a floating point value.
func Float(f float64) Value { return Value{kind: KindFloat, f: f} }

// Str returns a string value.
func Str(s string) Value { return Value{kind: KindString, s: s} }

// Strs returns a list of string values.
func Strs(list []string) Value {
	items := make([]Value, len(list))
	for i, s := range list {
		items[i] = Str(s)
	}
	return List(items...)
}

// List returns a list of values; no items is an empty list, not null.
func List(items ...Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: KindList, items: items}
}

// Map returns d as a value; a nil d is an empty dictionary.
func Map(d *Dict) Value {
	if d == nil {
		d = NewDict()
	}
	return Value{kind: KindDict, dict: d}
}

// Kind reports the value's kind.
func (v Value) Kind() Kind { return v.kind }

// Dict is a dictionary that keeps its keys in the order they were set.
type Dict struct {
	keys []string
	vals []Value
	at   map[string]int
}

// NewDict returns an empty dictionary.
func NewDict() *Dict { return &Dict{at: map[string]int{}} }

// Set sets key to v and returns d for chaining. Setting a key again
// replaces its value and keeps its first place.
func (d *Dict) Set(key string, v Value) *Dict {
	if i, ok := d.at[key]; ok {
		d.vals[i] = v
		return d
	}
	d.at[key] = len(d.keys)
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, v)
	return d
}

// Get returns the value of key and whether it is set.
func (d *Dict) Get(key string) (Value, bool) {
	i, ok := d.at[key]
	if !ok {
		return Value{}, false
	}
	return d.vals[i], true
}

// Keys returns the keys in order.
func (d *Dict) Keys() []string { return append([]string(nil), d.keys...) }

// Len returns the number of keys.
func (d *Dict) Len() int { return len(d.keys) }

// Dict returns the dictionary of a dictionary value, nil for other kinds.
// Changing it changes the value.
func (v Value) Dict() *Dict { return v.dict }
