package command

// sshareHelp is sshare --help (and --usage) as Slurm 22.05 prints it;
// Loam adds the Guarantee, InUse, Borrowed, Lent and GrpTRES fields.
const sshareHelp = `Usage:  sshare [OPTION]                                                    
  Valid OPTIONs are:                                                       
    -a or --all            list all users                                  
    -A or --accounts=      display specific accounts (comma separated list)
    -e or --helpformat     Print a list of fields that can be specified    
                           with the '--format' option                      
    -l or --long           include normalized usage in output              
    -m or --partition      print the partition part of the association     
    -M or --cluster=names  clusters to issue commands to.                  
                           NOTE: SlurmDBD must be up.                      
    -n or --noheader       omit header from output                         
    -o or --format=        Comma separated list of fields (use             
                           "--helpformat" for a list of available fields).
    -p or --parsable       '|' delimited output with a trailing '|'        
    -P or --parsable2      '|' delimited output without a trailing '|'     
    -u or --users=         display specific users (comma separated list)   
    -U or --Users          display only user information                   
    -v or --verbose        display more information                        
    -V or --version        display tool version number                     
          --help           display this usage description                  
          --usage          display this usage description                  
                                                                           

`
