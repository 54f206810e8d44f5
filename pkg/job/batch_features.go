package job

import (
	"errors"
	"slices"
	"strings"
)

// sbatch --batch=LIST names the features the node that runs the batch
// script must have. Slurm 22.05 reads the list twice, in two different
// ways, and both are reproduced here quirks included.

// ErrBatchConstraint is a --batch that Slurm's controller refuses as
// ESLURM_BATCH_CONSTRAINT.
var ErrBatchConstraint = errors.New("Job --batch option is invalid or not a subset of --constraints")

// ParseConstraintBatch is ParseConstraint for a job with --batch (batch
// not nil): Slurm checks --batch (BatchSubset) once -C's syntax is read
// and before its operators and names, so the peer answers --batch=nosuch
// -C '[gpu&cpu]' with ErrBatchConstraint but --batch=gpu -C '[gpu&cpu]'
// and --batch=cpu -C 'gpu&&' with ErrInvalidFeature.
func ParseConstraintBatch(s string, batch *string, known func(string) bool) (*Constraint, error) {
	return parseBatch(s, batch, known, ErrInvalidFeature)
}

// ParsePreferBatch is ParsePrefer for a job with --batch: Slurm checks
// --batch against --prefer's list too (the peer refuses --batch=gpu -C
// gpu --prefer=cpu and takes --batch=gpu --prefer=gpu without -C).
func ParsePreferBatch(s string, batch *string, known func(string) bool) (*Constraint, error) {
	return parseBatch(s, batch, known, ErrInvalidPrefer)
}

func parseBatch(s string, batch *string, known func(string) bool, listErr error) (*Constraint, error) {
	c, err := parseFeatureSyntax(s)
	if err == nil && batch != nil && !BatchSubset(*batch, c, known) {
		return nil, ErrBatchConstraint
	}
	if err == nil {
		err = c.checkOps()
	}
	if errors.Is(err, errFeatureList) {
		err = listErr
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// BatchSubset reports whether --batch's list may go with the feature list
// list (-C or --prefer, parsed), as slurmctld's _valid_batch_features
// checks it at submit: the list is split at every '&' and '|' (empty
// pieces dropped); each piece must be a feature name of list, exactly
// (the peer refuses --batch=gpu*2 with -C gpu*2), and on some node
// (known). With a '|' anywhere, the first piece missing from list ends
// the check and one known piece before it is enough, so the peer takes
// --batch='gpu|nosuch' and refuses --batch='nosuch|gpu' with -C gpu. A
// list of no pieces ("", "&") passes. A nil list (no -C) never does.
func BatchSubset(batch string, list *Constraint, known func(string) bool) bool {
	if list == nil {
		return false
	}
	names := list.Names()
	haveOr := strings.Contains(batch, "|")
	ok, anyOr := true, false
	for _, name := range batchPieces(batch) {
		if !slices.Contains(names, name) {
			ok = false
			break
		}
		ok = known(name)
		if ok {
			anyOr = true
		} else if !haveOr {
			break
		}
	}
	return ok || haveOr && anyOr
}

func batchPieces(batch string) []string {
	return strings.FieldsFunc(batch, func(r rune) bool { return r == '&' || r == '|' })
}

// BatchTest is how Slurm 22.05 picks the batch host from --batch's list:
// the names, joined by '&' and '|', are evaluated left to right without
// precedence. It returns nil, and the job's first node runs the script,
// when the list is empty, ends in an operator, has an '&' with no name
// before it ("&gpu", "gpu&&gpu", "gpu|&gpu") or names a feature no node
// has (known false): the peer ran "gpu|", "gpu&" and "gpu|nosuch" on
// the first node. A '|' with no name before it is skipped: "||gpu" and
// "gpu||gpu" are "gpu".
func BatchTest(batch string, known func(string) bool) *NodeTest {
	tt := testTerm{}
	start, or := -1, false
	add := func(end int) bool {
		name := batch[start:end]
		if !known(name) {
			return false
		}
		if len(tt.names) > 0 {
			tt.ors = append(tt.ors, or)
		}
		tt.names = append(tt.names, name)
		start = -1
		return true
	}
	for i := 0; i < len(batch); i++ {
		switch c := batch[i]; {
		case c != '&' && c != '|':
			if start < 0 {
				start = i
			}
		case start < 0 && c == '&':
			return nil
		case start < 0: // a '|' with no name: skipped
		default:
			if !add(i) {
				return nil
			}
			or = c == '|'
		}
	}
	if start < 0 || !add(len(batch)) {
		return nil
	}
	return &NodeTest{terms: []testTerm{tt}}
}
