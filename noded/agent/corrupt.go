package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/loamhpc/loam/noded/spool"
)

// corruptSuffix names a spool record moved aside because it did not decode.
const corruptSuffix = ".corrupt"

// readRecord reads a spool record (an event, a result) like
// spool.ReadJSON. One that does not decode, half-written before a crash or
// damaged on disk, is logged with its job, moved aside to NAME.corrupt (kept
// for the administrator) and read as missing: the job is then reported from
// what is left of its directory, failed when nothing is, and the daemon
// goes on with its other jobs instead of stopping at the first bad file.
func (a *Agent) readRecord(path string, v any) error {
	err := spool.ReadJSON(path, v)
	if !errors.Is(err, spool.ErrCorrupt) {
		return err // read, missing, or an I/O error the caller decides on
	}
	log := a.log.WithError(err).WithField("file", path)
	if rerr := os.Rename(path, path+corruptSuffix); rerr != nil {
		log.WithField("rename_error", rerr.Error()).Error("corrupt spool record could not be moved aside")
		return fmt.Errorf("%w: %w", err, rerr)
	}
	log.Error("corrupt spool record moved aside; the job is reported from what is left")
	return fmt.Errorf("corrupt record %s: %w", path, fs.ErrNotExist)
}
