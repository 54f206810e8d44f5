package command

// sstatHelp is sstat --help, as Slurm 22.05 prints it.
const sstatHelp = `sstat [<OPTION>] -j <job(.stepid)>                                          
    Valid <OPTION> values are:                                              
      -a, --allsteps:                                                       
                   Print all steps for the given job(s) when no step is     
                   specified.                                               
      -e, --helpformat:                                                     
	           Print a list of fields that can be specified with the    
	           '--format' option                                        
     -h, --help:   Print this description of use.                           
     -i, --pidformat:                                                       
                   Predefined format to list the pids running for each      
                   job step.  (JobId,Nodes,Pids)                            
     -j, --jobs:                                                            
	           Format is <job(.step)>. Stat this job step               
                   or comma-separated list of job steps. This option is     
                   required.  The step portion will default to the lowest   
                   numbered (not batch, extern, etc) step running if not    
                   specified, unless the --allsteps flag is set where not   
                   specifying a step will result in all running steps       
                   to be displayed. A step id of 'batch' will display the   
                   information about the batch step. A step id of 'extern'  
                   will display the information about the extern step       
                   when using PrologFlags=contain.                          
     -n, --noheader:                                                        
	           No header will be added to the beginning of output.      
                   The default is to print a header.                        
     --noconvert:  Don't convert units from their original type             
		   (e.g. 2048M won't be converted to 2G).                   
     -o, --format:                                                          
	           Comma separated list of fields. (use "--helpformat"    
                   for a list of available fields).                         
     -p, --parsable: output will be '|' delimited with a '|' at the end     
     -P, --parsable2: output will be '|' delimited without a '|' at the end 
     --usage:      Display brief usage message.                             
     -v, --verbose:                                                         
	           Primarily for debugging purposes, report the state of    
                   various variables during processing.                     
     -V, --version: Print version.                                          

`

// sstatUsage is sstat --usage.
const sstatUsage = "Usage: sstat [options] -j <job(.stepid)>\n\tUse --help for help\n"
