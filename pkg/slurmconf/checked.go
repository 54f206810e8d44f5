package slurmconf

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
)

// LoadChecked is Load then, when the files parse, Validate. Every file name
// in its errors and warnings gets prefix put before it, so that files read
// through os.DirFS("/") (whose names have no leading slash) are named by
// the absolute paths an administrator knows:
//
//	cfg, err := slurmconf.LoadChecked(os.DirFS("/"), "etc/slurm/slurm.conf", "/")
//	// err: /etc/slurm/slurm.conf:12: FooBar: unknown key: ...
//
// Config.Files keeps the fs.FS names.
func LoadChecked(fsys fs.FS, name, prefix string) (*Config, error) {
	return LoadCheckedWith(fsys, name, prefix, nil)
}

// LoadCheckedWith is LoadChecked with edit applied to the parsed files
// before Validate (the simulator puts another tenants.conf in place).
// Positions in what edit returns or adds are prefixed too.
func LoadCheckedWith(fsys fs.FS, name, prefix string, edit func(*Config) error) (*Config, error) {
	c, err := Load(fsys, name)
	if err == nil && edit != nil {
		err = edit(c)
	}
	// Every position the Config records is prefixed before Validate, whose
	// messages name them ("node n1 already defined at FILE:LINE").
	prefixAll(reflect.ValueOf(c).Elem(), prefix)
	if err == nil {
		err = c.Validate()
	}
	for _, e := range flatten(err) {
		var pe *Error
		if errors.As(e, &pe) {
			pe.Pos = prefixed(pe.Pos, prefix)
		}
		var fe *fs.PathError // a file that could not be opened
		if errors.As(e, &fe) && !strings.HasPrefix(fe.Path, prefix) {
			fe.Path = prefix + fe.Path
		}
	}
	return c, err
}

var posType = reflect.TypeOf(Pos{})

// prefixAll prefixes every Pos reachable from v (structs, pointers,
// slices, arrays and map values that are pointers).
func prefixAll(v reflect.Value, prefix string) {
	switch {
	case v.Type() == posType && v.CanSet():
		v.Set(reflect.ValueOf(prefixed(v.Interface().(Pos), prefix)))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			prefixAll(v.Elem(), prefix)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				prefixAll(v.Field(i), prefix)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			prefixAll(v.Index(i), prefix)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if e := v.MapIndex(k); e.Kind() == reflect.Pointer {
				prefixAll(e, prefix)
			}
		}
	}
}

func prefixed(p Pos, prefix string) Pos {
	if p.File != "" && !strings.HasPrefix(p.File, prefix) {
		p.File = prefix + p.File
	}
	return p
}

// flatten lists the errors an errors.Join holds.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}
