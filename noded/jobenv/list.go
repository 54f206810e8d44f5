package jobenv

import "strings"

// List is an environment that keeps first-insertion order; setting a name
// again replaces its value in place.
type List struct {
	entries []string
	at      map[string]int
}

// Set sets name to value.
func (l *List) Set(name, value string) {
	if l.at == nil {
		l.at = map[string]int{}
	}
	kv := name + "=" + value
	if i, ok := l.at[name]; ok {
		l.entries[i] = kv
		return
	}
	l.at[name] = len(l.entries)
	l.entries = append(l.entries, kv)
}

// Unset removes name (an inherited variable the step must not see).
func (l *List) Unset(name string) {
	i, ok := l.at[name]
	if !ok {
		return
	}
	l.entries = append(l.entries[:i], l.entries[i+1:]...)
	delete(l.at, name)
	for k, j := range l.at {
		if j > i {
			l.at[k] = j - 1
		}
	}
}

// Merge sets each NAME=value entry; entries without '=' are ignored.
func (l *List) Merge(kvs ...string) {
	for _, kv := range kvs {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			l.Set(k, v)
		}
	}
}

// Get returns name's value.
func (l *List) Get(name string) (string, bool) {
	i, ok := l.at[name]
	if !ok {
		return "", false
	}
	_, v, _ := strings.Cut(l.entries[i], "=")
	return v, true
}

// Entries returns the NAME=value entries in order.
func (l *List) Entries() []string { return append([]string(nil), l.entries...) }

func lookup(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}
