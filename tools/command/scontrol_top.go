package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// topClient is what scontrol top and notify need of the controller;
// *client.Client has it.
type topClient interface {
	Top(ctx context.Context, req *api.TopRequest) (*api.TopResponse, error)
	Notify(ctx context.Context, req *api.NotifyRequest) error
}

func (s *scontrol) topController() (topClient, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	t, ok := c.(topClient)
	if !ok {
		s.fail("scontrol: error: this controller offers no top or notify\n")
	}
	return t, ok
}

// top handles "top JOBID[,JOBID...]": exactly one argument, "JobId=" or
// "Job=" stripped from it, the list passed as written (the controller
// parses it, so one bad id fails it all). A failure prints the error
// "for job" the list, as scontrol does.
func (s *scontrol) top(argv []string) {
	switch {
	case len(argv) < 2:
		s.fail("too few arguments for keyword:%s\n", argv[0])
		return
	case len(argv) > 2:
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return
	}
	list := argv[1]
	list, _ = cutPrefixFold(list, "jobid=")
	list, _ = cutPrefixFold(list, "job=")
	c, ok := s.topController()
	if !ok {
		return
	}
	if _, err := c.Top(s.ctx, &api.TopRequest{JobIDs: list}); err != nil {
		s.fail("%s for job %s\n", errText(err), list)
	}
}
