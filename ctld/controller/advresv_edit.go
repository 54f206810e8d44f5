package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// Edits of a reservation's users, accounts and flags in scontrol update
// reservation, as Slurm 22.05 makes them. A list whose entries carry a
// leading "-" is a deny list (everyone but them), as Slurm prints it.

// listEdit is one parsed entry of Users= or Accounts= in an update.
type listEdit struct {
	name string
	op   byte // '+' add, '-' remove, 0 part of a new list
}

// parseListEdits splits the entries; Slurm refuses a plain name after a
// signed one ("+a,b"), but takes "a,-b" (the plain names are then
// ignored, as the peer shows).
func parseListEdits(in []string) (edits []listEdit, signed bool, ok bool) {
	for _, e := range in {
		if e == "" {
			continue
		}
		var op byte
		switch e[0] {
		case '+', '-':
			op, e, signed = e[0], e[1:], true
		default:
			if signed {
				return nil, false, false
			}
		}
		edits = append(edits, listEdit{name: e, op: op})
	}
	return edits, signed, true
}

// editList applies Users= or Accounts= of an update to old. Plain names
// replace the list. Signed ones add and remove; a removal from an empty
// list starts a deny list, where the signs swap meaning (Slurm's rule).
// valid checks a name; strict (accounts) also refuses removing a name the
// list lacks, or anything from an empty list. bad is the error code.
func editList(old, in []string, valid func(string) bool, strict bool, bad api.Code) ([]string, *api.Error) {
	edits, signed, ok := parseListEdits(in)
	if !ok {
		return nil, api.NewError(bad)
	}
	for _, e := range edits {
		if !valid(e.name) {
			return nil, api.NewError(bad)
		}
	}
	if !signed {
		var out []string
		for _, e := range edits {
			out = append(out, e.name)
		}
		return out, nil
	}
	minus := slices.ContainsFunc(edits, func(e listEdit) bool { return e.op == '-' })
	deny := len(old) == 0 && minus
	names := make([]string, 0, len(old)+len(edits))
	for _, o := range old {
		names = append(names, strings.TrimPrefix(o, "-"))
	}
	for _, e := range edits {
		if deny {
			e.op = map[byte]byte{'+': '-', '-': '+'}[e.op]
		}
		switch e.op {
		case '-':
			i := slices.Index(names, e.name)
			if strict && (len(old) == 0 || i < 0) {
				return nil, api.NewError(bad)
			}
			if i >= 0 {
				names = slices.Delete(names, i, i+1)
			}
		case '+':
			if !slices.Contains(names, e.name) {
				names = append(names, e.name)
			}
		}
	}
	if deny {
		for i := range names {
			names[i] = "-" + names[i]
		}
	}
	return names, nil
}

// listAdmits reports whether a list lets name in: an empty list says
// nothing, a deny list lets in everyone it does not name.
func listAdmits(list []string, name string) bool {
	if len(list) == 0 {
		return true
	}
	if strings.HasPrefix(list[0], "-") {
		return !slices.Contains(list, "-"+name)
	}
	return slices.Contains(list, name)
}

// splitFlag reads "+NAME", "-NAME" or "NAME" (set).
func splitFlag(f string) (name string, clear bool) {
	f = strings.TrimSpace(f)
	switch {
	case strings.HasPrefix(f, "-"):
		return f[1:], true
	case strings.HasPrefix(f, "+"):
		return f[1:], false
	}
	return f, false
}

// editFlags applies Flags= of an update to old: a name or +name sets the
// flag, -name clears it (clearing one Loam never sets does nothing).
func editFlags(old, in []string) ([]string, *api.Error) {
	var set []string
	out := slices.Clone(old)
	for _, f := range in {
		name, clear := splitFlag(f)
		if !clear {
			set = append(set, name)
			continue
		}
		out = slices.DeleteFunc(out, func(o string) bool { return strings.EqualFold(o, name) })
	}
	added, err := normalizeFlags(set)
	if err != nil {
		return nil, err
	}
	return normalizeFlags(append(out, added...))
}

// createFlags are the flags a creation sets: "-NAME" has nothing to clear
// there and is dropped, as Slurm does.
func createFlags(in []string) ([]string, *api.Error) {
	var set []string
	for _, f := range in {
		if name, clear := splitFlag(f); !clear {
			set = append(set, name)
		}
	}
	return normalizeFlags(set)
}

// applyAdvEdits applies an update's Users=, Groups=, Accounts= and Flags= to r,
// with Slurm's errors: an unknown user, a bad account edit, and a
// reservation left with neither users nor accounts.
func applyAdvEdits(r *advResv, u *api.AdvResvUpdate) *api.Error {
	if u.Flags != nil {
		f, err := editFlags(r.Flags, *u.Flags)
		if err != nil {
			return err
		}
		r.Flags = f
	}
	userExists := func(name string) bool { _, ok := lookupUID(name); return ok }
	if u.Users != nil {
		l, err := editList(r.Users, *u.Users, userExists, false, api.CodeUserIDMissing)
		if err != nil {
			return err
		}
		r.Users = l
	}
	if u.Groups != nil {
		l, err := editList(r.Groups, *u.Groups, groupExists, false, api.CodeGroupIDMissing)
		if err != nil {
			return err
		}
		r.Groups = l
	}
	if u.Accounts != nil {
		// Without an accounting database, as on the peer, any name is an
		// account.
		l, err := editList(r.Accounts, *u.Accounts, func(string) bool { return true }, true, api.CodeInvalidAccount)
		if err != nil {
			return err
		}
		r.Accounts = l
	}
	if len(r.Users) == 0 && len(r.Accounts) == 0 && len(r.Groups) == 0 {
		return api.NewError(api.CodeReservationEmpty)
	}
	return nil
}
