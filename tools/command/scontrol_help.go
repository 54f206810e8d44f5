package command

// scontrolHelp is what scontrol --help and "scontrol help" print: the
// commands Loam implements.
const scontrolHelp = `scontrol [<OPTION>] [<COMMAND>]
    Valid <OPTION> values are:
     -a, --all      Equivalent to "all" command
     -d, --details  Equivalent to "details" command
     -h, --help     Equivalent to "help" command
     -o, --oneliner Equivalent to "oneliner" command
     -Q, --quiet    Equivalent to "quiet" command
     -V, --version  Equivalent to "version" command

  <keyword> may be omitted from the execute line and scontrol will read
  commands from standard input, one per line, until "exit" or "quit".

    Valid <COMMAND> values are:
     completing               display jobs in completing state along with
                              their completing nodes
     create <SPECIFICATIONS>  create a reservation
     delete <SPECIFICATIONS>  delete the specified reservation
     details                  add details to the "show" command
     exit                     terminate scontrol
     help                     print this description of use.
     hold <job_list>          prevent specified jobs from starting
     holdu <job_list>         place a user hold on specified jobs
     uhold <job_list>         same as holdu
     notify <job_id> msg      send message to specified job
     listpids <job_id<.step>> [<node>]
                              list the processes of jobs on this host (a
                              node daemon of it, or all of them)
     oneliner                 print one line per record
     pidinfo <pid>            return the job of a process on this host
     ping                     tell whether the controller answers
     quiet                    print no warning or informational messages
     reconfigure              reread slurm.conf, gres.conf and tenants.conf
                              (all or nothing)
     release <job_list>       permit specified jobs to start
     requeue <job_list>       requeue running, completed or failed jobs
     requeuehold <job_list>   requeue jobs and hold them
     resume <jobid_list>      resume previously suspended job (see suspend)
     setdebug <level>         set loam-ctld's log level
     setdebugflags [+|-]<flag>  add or remove loam-ctld DebugFlags
     show <ENTITY> [<ID>]     display state of identified entity, default
                              is all records
     shutdown <OPTS>          stop loam-ctld and, unless <OPTS> is
                              "slurmctld" or "controller", the node daemons
     suspend <job_list>       suspend specified job (see resume)
     top <job_list>           Put specified job first in queue for user
     update <SPECIFICATIONS>  update job or node configuration
     version                  display tool version number
     wait_job <job_id>        wait until the nodes allocated to the job
                              are ready
     write batch_script <job_id> <optional filename>
                              write the job's batch script to a file
                              (default slurm-<job_id>.sh; "-": stdout)

  <ENTITY> may be "config", "daemons", "hostnames", "hostlist",
       "hostlistsorted", "job", "licenses", "node", "partition",
       "reservation" (the administrators' reservations, then those Loam's
       scheduler holds for blocked jobs), "steps" or "topology".

  <ID> may be a configuration parameter name, job id, node name or
       partition name.

  Job <SPECIFICATIONS>: JobId=<id> then any of TimeLimit, TimeMin,
       Partition, Priority (operators), Nice, Name, Comment, Account, QOS,
       StartTime, Deadline, Dependency, NumNodes, NumTasks, CPUsPerTask,
       Features, ReqNodeList, ExcNodeList, Gres, Requeue, StdOut,
       MailUser, MailType, ArrayTaskThrottle.

  Node <SPECIFICATIONS>: NodeName=<list> State=DRAIN|RESUME|DOWN|IDLE|UNDRAIN
       Reason=<text> (required for DRAIN and DOWN), Weight, Features.
`
