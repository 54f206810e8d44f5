package command

// sbatchUsage is what sbatch --usage prints, as Slurm prints it.
const sbatchUsage = `Usage: sbatch [-N nnodes] [-n ntasks]
              [-c ncpus] [-r n] [-p partition] [--hold] [--parsable] [-t minutes]
              [-D path] [--no-kill] [--overcommit]
              [--input file] [--output file] [--error file]
              [--time-min=minutes] [--licenses=names] [--clusters=cluster_names]
              [--chdir=directory] [--oversubscribe] [-m dist] [-J jobname]
              [--verbose] [--gid=group] [--uid=user]
              [--contiguous] [--mincpus=n] [--mem=MB] [--tmp=MB] [-C list]
              [--account=name] [--dependency=type:jobid[+time]] [--comment=name]
              [--mail-type=type] [--mail-user=user] [--nice[=value]] [--wait]
              [--requeue] [--no-requeue] [--ntasks-per-node=n] [--propagate]
              [--nodefile=file] [--nodelist=hosts] [--exclude=hosts]
              [--network=type] [--mem-per-cpu=MB] [--qos=qos] [--gres=list]
              [--mem-bind=...] [--reservation=name] [--mcs-label=mcs]
              [--cpu-freq=min[-max[:gov]]] [--power=flags] [--gres-flags=opts]
              [--switches=max-switches{@max-time-to-wait}] [--reboot]
              [--core-spec=cores] [--thread-spec=threads]
              [--bb=burst_buffer_spec] [--bbf=burst_buffer_file]
              [--array=index_values] [--profile=...] [--ignore-pbs] [--spread-job]
              [--export[=names]] [--export-file=file|fd] [--delay-boot=mins]
              [--use-min-nodes]
              [--cpus-per-gpu=n] [--gpus=n] [--gpu-bind=...] [--gpu-freq=...]
              [--gpus-per-node=n] [--gpus-per-socket=n] [--gpus-per-task=n]
              [--mem-per-gpu=MB]
              executable [args...]
`

// sbatchHelp is what sbatch --help prints: the options Loam acts on.
// Options Slurm has and Loam does not implement are accepted and ignored
// with a warning (see man sbatch).
const sbatchHelp = `Usage: sbatch [OPTIONS...] script [args...]

Parallel run options:
  -a, --array=indexes         job array index values (%N limits running tasks)
  -A, --account=name          charge job to specified account (tenant)
  -b, --begin=time            defer job until HH:MM MM/DD/YY
      --comment=name          arbitrary comment
  -c, --cpus-per-task=ncpus   number of cpus required per task
      --data=path[,path...]   (Loam) paths that must exist before the job is
                              accepted
  -d, --dependency=type:jobid[:time] defer job until condition on jobid is satisfied
      --deadline=time         remove the job if no ending possible before
                              this deadline
  -D, --chdir=directory       set working directory for batch script
  -e, --error=err             file for batch script's standard error
      --export[=names]        specify environment variables to export
      --get-user-env          load environment from local cluster
      --gres=list             required generic resources (gpu:8)
  -H, --hold                  submit job in held state
  -i, --input=in              file for batch script's standard input
  -J, --job-name=jobname      name of job
      --kill-on-invalid-dep=<yes|no> kill the job if its dependency can
                              never be satisfied
  -L, --licenses=names        accepted; Loam has no licenses
      --mail-type=type        notify on state change: BEGIN, END, FAIL or ALL
      --mail-user=user        who to send email notification for job state
                              changes
  -n, --ntasks=ntasks         number of tasks to run
      --nice[=value]          decrease scheduling priority by value
      --no-requeue            if set, do not permit the job to be requeued
      --ntasks-per-node=n     number of tasks to invoke on each node
  -N, --nodes=N               number of nodes on which to run (N = min[-max])
      --open-mode={append|truncate} output file mode
  -o, --output=out            file for batch script's standard output
  -p, --partition=partition   partition requested
      --parsable              outputs only the jobid and cluster name (if present),
                              separated by semicolon, only on successful submission.
  -q, --qos=qos               quality of service
  -Q, --quiet                 quiet mode (suppress informational messages)
      --reservation=name      allocate resources from named reservation
      --requeue               if set, permit the job to be requeued
  -s, --oversubscribe         over subscribe resources with other jobs
      --signal=[R:][B:]num[@time] send signal when time limit within time seconds
  -t, --time=minutes          time limit
      --time-min=minutes      minimum time limit (if distinct)
      --uid=user_id           user ID to run job as (user root only)
  -v, --verbose               verbose mode (multiple -v's increase verbosity)
  -W, --wait                  wait for completion of submitted job
      --wrap[=command string] wrap command string in a sh script and submit
      --test-only             run every admission check and print when the job
                              would start, without submitting it

Constraint options:
  -C, --constraint=list       specify a list of constraints
  -F, --nodefile=filename     request a specific list of hosts
      --mem=MB                minimum amount of real memory
      --mincpus=n             minimum number of logical processors per node
  -w, --nodelist=hosts...     request a specific list of hosts
  -x, --exclude=hosts...      exclude a specific list of hosts

Consumable resources related options:
      --exclusive[=user]      allocate nodes in exclusive mode
      --mem-per-cpu=MB        maximum amount of real memory per allocated
                              cpu required by the job.

GPU scheduling options:
      --cpus-per-gpu=n        number of CPUs required per allocated GPU
  -G, --gpus=n                count of GPUs required for the job
      --gpus-per-node=n       number of GPUs required per allocated node
      --gpus-per-task=n       number of GPUs required per spawned task
      --mem-per-gpu=n         real memory required per allocated GPU

Help options:
  -h, --help                  show this help message
      --usage                 display brief usage message

Other options:
  -V, --version               output version information and exit
`
