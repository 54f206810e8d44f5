package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

// overTimeText is a partition's OverTimeLimit as scontrol show partition
// prints it: minutes, UNLIMITED, or NONE when the cluster's applies.
func overTimeText(v *int64) string {
	switch {
	case v == nil:
		return "NONE"
	case *v == api.UnlimitedSeconds:
		return "UNLIMITED"
	}
	return strconv.FormatInt(*v, 10)
}
