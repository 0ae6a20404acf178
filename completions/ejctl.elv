
use builtin;
use str;

set edit:completion:arg-completer[ejctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ejctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ejctl'= {
            cand --zk '`--zk` before the command'
            cand --namespace '`--namespace` before the command'
            cand --context '`--context` before the command'
            cand --digest '`--digest` before the command'
            cand --tls-ca '`--tls-ca` before the command'
            cand --tls-cert '`--tls-cert` before the command'
            cand --tls-key '`--tls-key` before the command'
            cand --connect-timeout '`--connect-timeout` before the command'
            cand -o '`--output` before the command'
            cand --output '`--output` before the command'
            cand --sort-by '`--sort-by` before the command'
            cand --no-headers '`--no-headers` before the command'
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run the jobs of one or more job files (the worker runtime)'
            cand job 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
            cand config 'Read and change job configurations'
            cand server 'Servers (IPs): list, disable, enable, shutdown, remove'
            cand instance 'Live instances'
            cand sharding 'Sharding items: show, disable, enable, and preview what a strategy assigns'
            cand failover 'Failover items'
            cand context 'Named registries (connect string, namespace, digest), like kubectl contexts'
            cand cron 'Check cron expressions'
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand history 'Runs of a job from the trace store: fire, item, instance, start, duration, result'
            cand why 'Why a job (or item) did not run, or will not run next; with evidence and the fix'
            cand console 'A live full-screen console of the namespace: views, filters, actions with confirmations'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;run'= {
            cand --ip 'The IPv4 address in this worker''s instance id (`IP@-@PID`); overrides `[instance] ip`'
            cand --log-format 'Log format on stderr'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
            cand show 'Show one job: configuration, servers, instances, sharding, failover and leader'
            cand trigger 'Trigger a job now on every live instance; --wait follows the items until they finish'
            cand disable 'Disable a job on every server, or on one with --server (its items move elsewhere)'
            cand enable 'Enable a job on every server, or on one with --server'
            cand pause 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)'
            cand resume 'Resume a job: the same as enable'
            cand shutdown 'Shut a job''s instances down (all, or those of one server); they stay down until restarted'
            cand remove 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;job;list'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -w 'Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends'
            cand --watch 'Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;show'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --show-secrets 'Show the secrets of the configuration (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;trigger'= {
            cand --timeout 'How long --wait waits (ms, s, m, h)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --wait 'Wait until every item of this fire has finished and print per-item results'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;disable'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;enable'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;pause'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;resume'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;shutdown'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;remove'= {
            cand --server 'Only this server (IPv4 address)'
            cand --ip 'Only this server (IPv4 address)'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --purge 'Delete the whole job tree, configuration included'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;job;help'= {
            cand list 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
            cand show 'Show one job: configuration, servers, instances, sharding, failover and leader'
            cand trigger 'Trigger a job now on every live instance; --wait follows the items until they finish'
            cand disable 'Disable a job on every server, or on one with --server (its items move elsewhere)'
            cand enable 'Enable a job on every server, or on one with --server'
            cand pause 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)'
            cand resume 'Resume a job: the same as enable'
            cand shutdown 'Shut a job''s instances down (all, or those of one server); they stay down until restarted'
            cand remove 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;job;help;list'= {
        }
        &'ejctl;job;help;show'= {
        }
        &'ejctl;job;help;trigger'= {
        }
        &'ejctl;job;help;disable'= {
        }
        &'ejctl;job;help;enable'= {
        }
        &'ejctl;job;help;pause'= {
        }
        &'ejctl;job;help;resume'= {
        }
        &'ejctl;job;help;shutdown'= {
        }
        &'ejctl;job;help;remove'= {
        }
        &'ejctl;job;help;help'= {
        }
        &'ejctl;config'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand get 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets'
            cand set 'Change configuration keys, validated and written with a version check'
            cand edit 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check'
            cand apply 'Write the configurations of job files to the registry (created, updated or unchanged)'
            cand diff 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;config;get'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --show-secrets 'Show the secrets (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`: the output can then be written back with `config set` or `config apply`'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;set'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;edit'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;apply'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;diff'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --files 'Compare the jobs of two job files with each other instead of with the registry'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;config;help'= {
            cand get 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets'
            cand set 'Change configuration keys, validated and written with a version check'
            cand edit 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check'
            cand apply 'Write the configurations of job files to the registry (created, updated or unchanged)'
            cand diff 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;config;help;get'= {
        }
        &'ejctl;config;help;set'= {
        }
        &'ejctl;config;help;edit'= {
        }
        &'ejctl;config;help;apply'= {
        }
        &'ejctl;config;help;diff'= {
        }
        &'ejctl;config;help;help'= {
        }
        &'ejctl;server'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the servers (IPs) of the namespace with their instances and jobs'
            cand show 'Show one server: its jobs, their status there, its instances and their items'
            cand disable 'Disable every job on a server: its instances get no items'
            cand enable 'Enable every job on a server'
            cand shutdown 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
            cand remove 'Shut a server''s instances down and delete its servers/{ip} node from every job'
            cand prune 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;server;list'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;show'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;disable'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;enable'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;shutdown'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;remove'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;prune'= {
            cand --older-than 'Only servers whose node was not written during this long (e.g. 0s, 10m, 1h): a server just registering writes its node before its instance'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -y 'Answer yes to confirmations (needed without a terminal)'
            cand --yes 'Answer yes to confirmations (needed without a terminal)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;server;help'= {
            cand list 'List the servers (IPs) of the namespace with their instances and jobs'
            cand show 'Show one server: its jobs, their status there, its instances and their items'
            cand disable 'Disable every job on a server: its instances get no items'
            cand enable 'Enable every job on a server'
            cand shutdown 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
            cand remove 'Shut a server''s instances down and delete its servers/{ip} node from every job'
            cand prune 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;server;help;list'= {
        }
        &'ejctl;server;help;show'= {
        }
        &'ejctl;server;help;disable'= {
        }
        &'ejctl;server;help;enable'= {
        }
        &'ejctl;server;help;shutdown'= {
        }
        &'ejctl;server;help;remove'= {
        }
        &'ejctl;server;help;prune'= {
        }
        &'ejctl;server;help;help'= {
        }
        &'ejctl;instance'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the live instances of every job, or of one job'
            cand show 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;instance;list'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;instance;show'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;instance;help'= {
            cand list 'List the live instances of every job, or of one job'
            cand show 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;instance;help;list'= {
        }
        &'ejctl;instance;help;show'= {
        }
        &'ejctl;instance;help;help'= {
        }
        &'ejctl;sharding'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Show a job''s items: owner, server IP, status, failover owner, disabled'
            cand disable 'Disable sharding items: their owners skip them until they are enabled again'
            cand enable 'Enable sharding items that were disabled'
            cand plan 'Preview what a sharding strategy assigns, without a registry'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;sharding;show'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand -w 'Redraw after every change in the job''s tree (ZooKeeper watches, no polling); Ctrl-C ends'
            cand --watch 'Redraw after every change in the job''s tree (ZooKeeper watches, no polling); Ctrl-C ends'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;sharding;disable'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;sharding;enable'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;sharding;plan'= {
            cand --strategy 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE'
            cand --job-name 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it); default: empty'
            cand --instances 'Instance ids, comma-separated (`ip@-@pid`)'
            cand --total 'shardingTotalCount (1 to 10000, as in a job configuration)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --keep-order 'Use the instances in the order given instead of ElasticJob''s (reverse lexicographic)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;sharding;help'= {
            cand show 'Show a job''s items: owner, server IP, status, failover owner, disabled'
            cand disable 'Disable sharding items: their owners skip them until they are enabled again'
            cand enable 'Enable sharding items that were disabled'
            cand plan 'Preview what a sharding strategy assigns, without a registry'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;sharding;help;show'= {
        }
        &'ejctl;sharding;help;disable'= {
        }
        &'ejctl;sharding;help;enable'= {
        }
        &'ejctl;sharding;help;plan'= {
        }
        &'ejctl;sharding;help;help'= {
        }
        &'ejctl;failover'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List pending failover items and the instances failing items over now, of every job or one'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;failover;list'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;failover;help'= {
            cand list 'List pending failover items and the instances failing items over now, of every job or one'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;failover;help;list'= {
        }
        &'ejctl;failover;help;help'= {
        }
        &'ejctl;context'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the registry contexts; `*` marks the current one'
            cand show 'Show one context (default: the one in use)'
            cand set 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
            cand use 'Make a context the current one'
            cand delete 'Delete a context (and clear the current context if it was that one)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;context;list'= {
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;show'= {
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;set'= {
            cand --trace 'The trace store `ejctl history` and `ejctl why` read in this context: a SQLite file or a postgres:// URL (`''''` removes it)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --use 'Also make it the current context'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;use'= {
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;delete'= {
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;context;help'= {
            cand list 'List the registry contexts; `*` marks the current one'
            cand show 'Show one context (default: the one in use)'
            cand set 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
            cand use 'Make a context the current one'
            cand delete 'Delete a context (and clear the current context if it was that one)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;context;help;list'= {
        }
        &'ejctl;context;help;show'= {
        }
        &'ejctl;context;help;set'= {
        }
        &'ejctl;context;help;use'= {
        }
        &'ejctl;context;help;delete'= {
        }
        &'ejctl;context;help;help'= {
        }
        &'ejctl;cron'= {
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand next 'Print the next fire instants of a Quartz cron expression'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;cron;next'= {
            cand --time-zone 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local'
            cand --after 'Start after this instant (RFC 3339); default: now'
            cand -n 'How many instants to print (1 to 1000)'
            cand --count 'How many instants to print (1 to 1000)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;cron;help'= {
            cand next 'Print the next fire instants of a Quartz cron expression'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;cron;help;next'= {
        }
        &'ejctl;cron;help;help'= {
        }
        &'ejctl;dump'= {
            cand --addr 'Ask a worker''s dump port (`dump@JOB` protocol) instead of reading the registry'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --mask-ips 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob''s dump does)'
            cand --elasticjob 'Print ElasticJob''s dump lines (`path | value`), as a Java worker''s dump port answers'
            cand --show-secrets 'Show the secrets of job configurations (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;history'= {
            cand --item 'Only this sharding item'
            cand --since 'Only runs that started within this long (`30m`, `2h`, `7d`) or since this time (RFC 3339, or `YYYY-MM-DD HH:MM:SS` local)'
            cand --source 'Only runs of this source'
            cand -n 'At most this many runs (newest first)'
            cand --limit 'At most this many runs (newest first)'
            cand --trace 'The trace store: a SQLite file or a postgres:// URL (default: the workers'' default SQLite file on this machine)'
            cand --job-file 'Take the trace store from the trace table of this job file'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --failed 'Only runs that failed or were killed'
            cand --output-tail 'Print the captured output of the item''s last run (needs --item)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;why'= {
            cand --item 'Only this sharding item'
            cand --fire 'Account for this past fire: was it run in time, late (and why), or not (RFC 3339; `YYYY-MM-DD HH:MM:SS` or a time of day `HH:MM[:SS]` in the job''s time zone, a time of day being its latest occurrence; or a duration ago such as `10m`)'
            cand --trace 'The trace store: a SQLite file or a postgres:// URL (default: the workers'' default SQLite file on this machine)'
            cand --job-file 'Take the trace store from the trace table of this job file'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand -o 'Output format (`wide`: a table with every column)'
            cand --output 'Output format (`wide`: a table with every column)'
            cand --sort-by 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)'
            cand --no-headers 'Tables and plain rows without the header line'
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;console'= {
            cand --snapshot 'Print one frame of the jobs view, COLS wide and ROWS high, as plain text after the first read of the namespace, and exit'
            cand --context 'Use a named registry from the contexts file (see `ejctl context`)'
            cand --zk 'ZooKeeper connect string'
            cand --namespace 'Registry namespace (the ZooKeeper chroot the jobs live under)'
            cand --digest 'Digest credentials for a registry that uses ACLs'
            cand --tls-ca 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on'
            cand --tls-cert 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS'
            cand --tls-key 'The client certificate''s private key (PEM)'
            cand --connect-timeout 'How long to wait for the registry (default 5s)'
            cand --readonly 'Refuse every write: action keys only say why (a context may also say `readonly = true`)'
            cand -y '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand --yes '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;completions'= {
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;man'= {
            cand -y 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand --yes 'Accepted for scripts and ignored: this command never asks for confirmation'
            cand -v 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand --verbose 'More log output on stderr (repeat for more); `-v` names the registry a command used'
            cand -q 'Only errors on stderr'
            cand --quiet 'Only errors on stderr'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ejctl;help'= {
            cand run 'Run the jobs of one or more job files (the worker runtime)'
            cand job 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove'
            cand config 'Read and change job configurations'
            cand server 'Servers (IPs): list, disable, enable, shutdown, remove'
            cand instance 'Live instances'
            cand sharding 'Sharding items: show, disable, enable, and preview what a strategy assigns'
            cand failover 'Failover items'
            cand context 'Named registries (connect string, namespace, digest), like kubectl contexts'
            cand cron 'Check cron expressions'
            cand dump 'Print the registry tree (or one job''s) with node values'
            cand history 'Runs of a job from the trace store: fire, item, instance, start, duration, result'
            cand why 'Why a job (or item) did not run, or will not run next; with evidence and the fix'
            cand console 'A live full-screen console of the namespace: views, filters, actions with confirmations'
            cand completions 'Print a shell completion script'
            cand man 'Write the man pages into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ejctl;help;run'= {
        }
        &'ejctl;help;job'= {
            cand list 'List the jobs of the namespace: status, cron, next fire, instances, items, description'
            cand show 'Show one job: configuration, servers, instances, sharding, failover and leader'
            cand trigger 'Trigger a job now on every live instance; --wait follows the items until they finish'
            cand disable 'Disable a job on every server, or on one with --server (its items move elsewhere)'
            cand enable 'Enable a job on every server, or on one with --server'
            cand pause 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)'
            cand resume 'Resume a job: the same as enable'
            cand shutdown 'Shut a job''s instances down (all, or those of one server); they stay down until restarted'
            cand remove 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job'
        }
        &'ejctl;help;job;list'= {
        }
        &'ejctl;help;job;show'= {
        }
        &'ejctl;help;job;trigger'= {
        }
        &'ejctl;help;job;disable'= {
        }
        &'ejctl;help;job;enable'= {
        }
        &'ejctl;help;job;pause'= {
        }
        &'ejctl;help;job;resume'= {
        }
        &'ejctl;help;job;shutdown'= {
        }
        &'ejctl;help;job;remove'= {
        }
        &'ejctl;help;config'= {
            cand get 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets'
            cand set 'Change configuration keys, validated and written with a version check'
            cand edit 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check'
            cand apply 'Write the configurations of job files to the registry (created, updated or unchanged)'
            cand diff 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference'
        }
        &'ejctl;help;config;get'= {
        }
        &'ejctl;help;config;set'= {
        }
        &'ejctl;help;config;edit'= {
        }
        &'ejctl;help;config;apply'= {
        }
        &'ejctl;help;config;diff'= {
        }
        &'ejctl;help;server'= {
            cand list 'List the servers (IPs) of the namespace with their instances and jobs'
            cand show 'Show one server: its jobs, their status there, its instances and their items'
            cand disable 'Disable every job on a server: its instances get no items'
            cand enable 'Enable every job on a server'
            cand shutdown 'Shut down every job instance on a server (the processes stop their jobs until restarted)'
            cand remove 'Shut a server''s instances down and delete its servers/{ip} node from every job'
            cand prune 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them'
        }
        &'ejctl;help;server;list'= {
        }
        &'ejctl;help;server;show'= {
        }
        &'ejctl;help;server;disable'= {
        }
        &'ejctl;help;server;enable'= {
        }
        &'ejctl;help;server;shutdown'= {
        }
        &'ejctl;help;server;remove'= {
        }
        &'ejctl;help;server;prune'= {
        }
        &'ejctl;help;instance'= {
            cand list 'List the live instances of every job, or of one job'
            cand show 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items'
        }
        &'ejctl;help;instance;list'= {
        }
        &'ejctl;help;instance;show'= {
        }
        &'ejctl;help;sharding'= {
            cand show 'Show a job''s items: owner, server IP, status, failover owner, disabled'
            cand disable 'Disable sharding items: their owners skip them until they are enabled again'
            cand enable 'Enable sharding items that were disabled'
            cand plan 'Preview what a sharding strategy assigns, without a registry'
        }
        &'ejctl;help;sharding;show'= {
        }
        &'ejctl;help;sharding;disable'= {
        }
        &'ejctl;help;sharding;enable'= {
        }
        &'ejctl;help;sharding;plan'= {
        }
        &'ejctl;help;failover'= {
            cand list 'List pending failover items and the instances failing items over now, of every job or one'
        }
        &'ejctl;help;failover;list'= {
        }
        &'ejctl;help;context'= {
            cand list 'List the registry contexts; `*` marks the current one'
            cand show 'Show one context (default: the one in use)'
            cand set 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace'
            cand use 'Make a context the current one'
            cand delete 'Delete a context (and clear the current context if it was that one)'
        }
        &'ejctl;help;context;list'= {
        }
        &'ejctl;help;context;show'= {
        }
        &'ejctl;help;context;set'= {
        }
        &'ejctl;help;context;use'= {
        }
        &'ejctl;help;context;delete'= {
        }
        &'ejctl;help;cron'= {
            cand next 'Print the next fire instants of a Quartz cron expression'
        }
        &'ejctl;help;cron;next'= {
        }
        &'ejctl;help;dump'= {
        }
        &'ejctl;help;history'= {
        }
        &'ejctl;help;why'= {
        }
        &'ejctl;help;console'= {
        }
        &'ejctl;help;completions'= {
        }
        &'ejctl;help;man'= {
        }
        &'ejctl;help;help'= {
        }
    ]
    $completions[$command]
}
