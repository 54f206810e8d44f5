package command

// srunUsage is what srun --usage prints, as Slurm prints it.
const srunUsage = `Usage: srun [-N nnodes] [-n ntasks] [-i in] [-o out] [-e err]
            [-c ncpus] [-r n] [-p partition] [--hold] [-t minutes]
            [-D path] [--immediate[=secs]] [--overcommit] [--overlap] [--no-kill]
            [--oversubscribe] [--label] [--unbuffered] [-m dist] [-J jobname]
            [--jobid=id] [--verbose] [--slurmd_debug=#] [--gres=list]
            [-T threads] [-W sec] [--gres-flags=opts]
            [--licenses=names] [--clusters=cluster_names]
            [--qos=qos] [--time-min=minutes]
            [--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]
            [--mpi=type] [--account=name] [--dependency=type:jobid[+time]]
            [--kill-on-bad-exit] [--propagate[=rlimits] [--comment=name]
            [--cpu-bind=...] [--mem-bind=...] [--network=type]
            [--ntasks-per-node=n] [--ntasks-per-socket=n] [reservation=name]
            [--ntasks-per-core=n] [--mem-per-cpu=MB] [--preserve-env]
            [--profile=...] [--exact]
            [--mail-type=type] [--mail-user=user] [--nice[=value]]
            [--prolog=fname] [--epilog=fname]
            [--task-prolog=fname] [--task-epilog=fname]
            [--ctrl-comm-ifhn=addr] [--multi-prog] [--mcs-label=mcs]
            [--cpu-freq=min[-max[:gov]]] [--power=flags] [--spread-job]
            [--switches=max-switches{@max-time-to-wait}] [--reboot]
            [--core-spec=cores] [--thread-spec=threads]
            [--bb=burst_buffer_spec] [--bbf=burst_buffer_file]
            [--bcast=<dest_path>] [--bcast-exclude=<NONE|path1,...,pathN>]
            [--send-libs[=y|n]] [--compress[=library]]
            [--acctg-freq=<datatype>=<interval>] [--delay-boot=mins]
            [-w hosts...] [-x hosts...] [--use-min-nodes]
            [--mpi-combine=yes|no] [--het-group=value]
            [--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]
            [--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]
            [--mem-per-gpu=MB]
            executable [args...]
`

// sallocUsage is what salloc --usage prints, as Slurm prints it.
const sallocUsage = `Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]
              [-c cpus-per-node] [-r n] [-p partition] [--hold] [-t minutes]
              [--immediate[=secs]] [--no-kill] [--overcommit] [-D path]
              [--oversubscribe] [-J jobname]
              [--verbose] [--gid=group] [--uid=user] [--licenses=names]
              [--clusters=cluster_names]
              [--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]
              [--account=name] [--dependency=type:jobid[+time]] [--comment=name]
              [--mail-type=type] [--mail-user=user] [--nice[=value]]
              [--bell] [--no-bell] [--kill-command[=signal]] [--spread-job]
              [--nodefile=file] [--nodelist=hosts] [--exclude=hosts]
              [--network=type] [--mem-per-cpu=MB] [--qos=qos]
              [--mem-bind=...] [--reservation=name] [--mcs-label=mcs]
              [--time-min=minutes] [--gres=list] [--gres-flags=opts]
              [--cpu-freq=min[-max[:gov]]] [--power=flags] [--profile=...]
              [--switches=max-switches[@max-time-to-wait]]
              [--core-spec=cores] [--thread-spec=threads] [--reboot]
              [--bb=burst_buffer_spec] [--bbf=burst_buffer_file]
              [--delay-boot=mins] [--use-min-nodes]
              [--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]
              [--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]
              [--mem-per-gpu=MB]
              [command [args...]]
`

// srunHelp is srun --help: the options Loam implements; the others Slurm
// has are accepted and ignored with a warning.
const srunHelp = `Usage: srun [OPTIONS(0)... [executable(0) [args(0)...]]]

Run a parallel job step: inside an allocation (SLURM_JOB_ID, --jobid) on
its nodes, or in a new allocation made for the step and released after it.

Parallel run options:
  -A, --account=name          charge job to specified account
  -b, --begin=time            defer job until HH:MM MM/DD/YY (new allocation)
  -c, --cpus-per-task=ncpus   number of cpus required per task
      --cpu-bind=type         bind tasks to CPUs: none, cores, threads,
                              sockets, rank, map_cpu:LIST, mask_cpu:LIST
  -D, --chdir=path            change remote current working directory
  -e, --error=err             location of stderr redirection (%t %n %N %j %s)
      --export=env_vars|NONE  environment passed to the tasks
  -G, --gpus=n                count of GPUs required for the step
      --gpu-bind=...          bind tasks to GPUs: none, closest, single:N,
                              per_task:N, map_gpu:LIST, mask_gpu:LIST
      --gpus-per-node=n       number of GPUs required per allocated node
      --gpus-per-task=n       number of GPUs required per spawned task
  -i, --input=in              location of stdin redirection: all, none, a task
                              id, or a file name pattern
  -J, --job-name=jobname      name of job step
      --jobid=id              run under already allocated job
  -K, --kill-on-bad-exit      kill the step if any task exits non-zero
  -l, --label                 prepend task number to lines of stdout/err
  -N, --nodes=N               number of nodes on which to run (N = min[-max])
  -n, --ntasks=ntasks         number of tasks to run
      --ntasks-per-node=n     number of tasks to invoke on each node
  -o, --output=out            location of stdout redirection
  -O, --overcommit            overcommit resources
  -p, --partition=partition   partition requested (new allocation)
  -Q, --quiet                 quiet mode (suppress informational messages)
  -t, --time=minutes          time limit (new allocation)
  -u, --unbuffered            do not line-buffer stdout/err
  -v, --verbose               verbose mode (multiple -v's increase verbosity)
  -w, --nodelist=hosts...     request a specific list of hosts
  -x, --exclude=hosts...      exclude a specific list of hosts
  -X, --disable-status        Disable Ctrl-C status feature

Help options:
  -h, --help                  show this help message
      --usage                 display brief usage message

Other options:
  -V, --version               output version information and exit
`

// sallocHelp is salloc --help.
const sallocHelp = `Usage: salloc [OPTIONS(0)...] [ : [OPTIONS(N)...]] [command(0) [args(0)...]]

Obtain a job allocation, run command (the user's shell by default) with
SLURM_JOB_ID and the allocation's variables set, and release the
allocation when it exits.

Parallel run options:
  -A, --account=name          charge job to specified account
  -c, --cpus-per-task=ncpus   number of cpus required per task
  -G, --gpus=n                count of GPUs required for the job
      --gres=list             required generic resources
  -J, --job-name=jobname      name of job
  -N, --nodes=N               number of nodes on which to run (N = min[-max])
  -n, --ntasks=N              number of processors required
      --ntasks-per-node=n     number of tasks to invoke on each node
  -p, --partition=partition   partition requested
  -t, --time=minutes          time limit
  -w, --nodelist=hosts...     request a specific list of hosts
  -x, --exclude=hosts...      exclude a specific list of hosts

Help options:
  -h, --help                  show this help message
      --usage                 display brief usage message

Other options:
  -V, --version               output version information and exit
`
