
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ejctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ejctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ejctl' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, '`--zk` before the command')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, '`--namespace` before the command')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, '`--context` before the command')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, '`--digest` before the command')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, '`--tls-ca` before the command')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, '`--tls-cert` before the command')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, '`--tls-key` before the command')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, '`--connect-timeout` before the command')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, '`--output` before the command')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, '`--output` before the command')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, '`--sort-by` before the command')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, '`--no-headers` before the command')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the jobs of one or more job files (the worker runtime)')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Read and change job configurations')
            [CompletionResult]::new('server', 'server', [CompletionResultType]::ParameterValue, 'Servers (IPs): list, disable, enable, shutdown, remove')
            [CompletionResult]::new('instance', 'instance', [CompletionResultType]::ParameterValue, 'Live instances')
            [CompletionResult]::new('sharding', 'sharding', [CompletionResultType]::ParameterValue, 'Sharding items: show, disable, enable, and preview what a strategy assigns')
            [CompletionResult]::new('failover', 'failover', [CompletionResultType]::ParameterValue, 'Failover items')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Named registries (connect string, namespace, digest), like kubectl contexts')
            [CompletionResult]::new('cron', 'cron', [CompletionResultType]::ParameterValue, 'Check cron expressions')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Print the registry tree (or one job''s) with node values')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Runs of a job from the trace store: fire, item, instance, start, duration, result')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Why a job (or item) did not run, or will not run next; with evidence and the fix')
            [CompletionResult]::new('console', 'console', [CompletionResultType]::ParameterValue, 'A live full-screen console of the namespace: views, filters, actions with confirmations')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;run' {
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'The IPv4 address in this worker''s instance id (`IP@-@PID`); overrides `[instance] ip`')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Log format on stderr')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace: status, cron, next fire, instances, items, description')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one job: configuration, servers, instances, sharding, failover and leader')
            [CompletionResult]::new('trigger', 'trigger', [CompletionResultType]::ParameterValue, 'Trigger a job now on every live instance; --wait follows the items until they finish')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable a job on every server, or on one with --server (its items move elsewhere)')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable a job on every server, or on one with --server')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a job: the same as enable')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut a job''s instances down (all, or those of one server); they stay down until restarted')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;job;list' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Redraw after every change in the registry (ZooKeeper watches, no polling); Ctrl-C ends')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;show' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show the secrets of the configuration (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;trigger' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long --wait waits (ms, s, m, h)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait until every item of this fire has finished and print per-item results')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;disable' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;enable' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;pause' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;resume' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;shutdown' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;remove' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--ip', '--ip', [CompletionResultType]::ParameterName, 'Only this server (IPv4 address)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Delete the whole job tree, configuration included')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace: status, cron, next fire, instances, items, description')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one job: configuration, servers, instances, sharding, failover and leader')
            [CompletionResult]::new('trigger', 'trigger', [CompletionResultType]::ParameterValue, 'Trigger a job now on every live instance; --wait follows the items until they finish')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable a job on every server, or on one with --server (its items move elsewhere)')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable a job on every server, or on one with --server')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a job: the same as enable')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut a job''s instances down (all, or those of one server); they stay down until restarted')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;job;help;list' {
            break
        }
        'ejctl;job;help;show' {
            break
        }
        'ejctl;job;help;trigger' {
            break
        }
        'ejctl;job;help;disable' {
            break
        }
        'ejctl;job;help;enable' {
            break
        }
        'ejctl;job;help;pause' {
            break
        }
        'ejctl;job;help;resume' {
            break
        }
        'ejctl;job;help;shutdown' {
            break
        }
        'ejctl;job;help;remove' {
            break
        }
        'ejctl;job;help;help' {
            break
        }
        'ejctl;config' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change configuration keys, validated and written with a version check')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Write the configurations of job files to the registry (created, updated or unchanged)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;config;get' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show the secrets (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`: the output can then be written back with `config set` or `config apply`')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;set' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;edit' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;apply' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;diff' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Compare the jobs of two job files with each other instead of with the registry')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;help' {
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change configuration keys, validated and written with a version check')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Write the configurations of job files to the registry (created, updated or unchanged)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;config;help;get' {
            break
        }
        'ejctl;config;help;set' {
            break
        }
        'ejctl;config;help;edit' {
            break
        }
        'ejctl;config;help;apply' {
            break
        }
        'ejctl;config;help;diff' {
            break
        }
        'ejctl;config;help;help' {
            break
        }
        'ejctl;server' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace with their instances and jobs')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server: its jobs, their status there, its instances and their items')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable every job on a server: its instances get no items')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable every job on a server')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut down every job instance on a server (the processes stop their jobs until restarted)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Shut a server''s instances down and delete its servers/{ip} node from every job')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;server;list' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;show' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;disable' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;enable' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;shutdown' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;remove' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only servers whose node was not written during this long (e.g. 0s, 10m, 1h): a server just registering writes its node before its instance')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace with their instances and jobs')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server: its jobs, their status there, its instances and their items')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable every job on a server: its instances get no items')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable every job on a server')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut down every job instance on a server (the processes stop their jobs until restarted)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Shut a server''s instances down and delete its servers/{ip} node from every job')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;server;help;list' {
            break
        }
        'ejctl;server;help;show' {
            break
        }
        'ejctl;server;help;disable' {
            break
        }
        'ejctl;server;help;enable' {
            break
        }
        'ejctl;server;help;shutdown' {
            break
        }
        'ejctl;server;help;remove' {
            break
        }
        'ejctl;server;help;prune' {
            break
        }
        'ejctl;server;help;help' {
            break
        }
        'ejctl;instance' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances of every job, or of one job')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;instance;list' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;instance;show' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;instance;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances of every job, or of one job')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;instance;help;list' {
            break
        }
        'ejctl;instance;help;show' {
            break
        }
        'ejctl;instance;help;help' {
            break
        }
        'ejctl;sharding' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a job''s items: owner, server IP, status, failover owner, disabled')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable sharding items: their owners skip them until they are enabled again')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable sharding items that were disabled')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;sharding;show' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Redraw after every change in the job''s tree (ZooKeeper watches, no polling); Ctrl-C ends')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Redraw after every change in the job''s tree (ZooKeeper watches, no polling); Ctrl-C ends')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;sharding;disable' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;sharding;enable' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;sharding;plan' {
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE')
            [CompletionResult]::new('--job-name', '--job-name', [CompletionResultType]::ParameterName, 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it); default: empty')
            [CompletionResult]::new('--instances', '--instances', [CompletionResultType]::ParameterName, 'Instance ids, comma-separated (`ip@-@pid`)')
            [CompletionResult]::new('--total', '--total', [CompletionResultType]::ParameterName, 'shardingTotalCount (1 to 10000, as in a job configuration)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--keep-order', '--keep-order', [CompletionResultType]::ParameterName, 'Use the instances in the order given instead of ElasticJob''s (reverse lexicographic)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;sharding;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a job''s items: owner, server IP, status, failover owner, disabled')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable sharding items: their owners skip them until they are enabled again')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable sharding items that were disabled')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;sharding;help;show' {
            break
        }
        'ejctl;sharding;help;disable' {
            break
        }
        'ejctl;sharding;help;enable' {
            break
        }
        'ejctl;sharding;help;plan' {
            break
        }
        'ejctl;sharding;help;help' {
            break
        }
        'ejctl;failover' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List pending failover items and the instances failing items over now, of every job or one')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;failover;list' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;failover;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List pending failover items and the instances failing items over now, of every job or one')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;failover;help;list' {
            break
        }
        'ejctl;failover;help;help' {
            break
        }
        'ejctl;context' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts; `*` marks the current one')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one context (default: the one in use)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a context the current one')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context (and clear the current context if it was that one)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;context;list' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;show' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;set' {
            [CompletionResult]::new('--trace', '--trace', [CompletionResultType]::ParameterName, 'The trace store `ejctl history` and `ejctl why` read in this context: a SQLite file or a postgres:// URL (`''''` removes it)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--use', '--use', [CompletionResultType]::ParameterName, 'Also make it the current context')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;use' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;delete' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts; `*` marks the current one')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one context (default: the one in use)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a context the current one')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context (and clear the current context if it was that one)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;context;help;list' {
            break
        }
        'ejctl;context;help;show' {
            break
        }
        'ejctl;context;help;set' {
            break
        }
        'ejctl;context;help;use' {
            break
        }
        'ejctl;context;help;delete' {
            break
        }
        'ejctl;context;help;help' {
            break
        }
        'ejctl;cron' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Print the next fire instants of a Quartz cron expression')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;cron;next' {
            [CompletionResult]::new('--time-zone', '--time-zone', [CompletionResultType]::ParameterName, 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Start after this instant (RFC 3339); default: now')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many instants to print (1 to 1000)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many instants to print (1 to 1000)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;cron;help' {
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Print the next fire instants of a Quartz cron expression')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;cron;help;next' {
            break
        }
        'ejctl;cron;help;help' {
            break
        }
        'ejctl;dump' {
            [CompletionResult]::new('--addr', '--addr', [CompletionResultType]::ParameterName, 'Ask a worker''s dump port (`dump@JOB` protocol) instead of reading the registry')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--mask-ips', '--mask-ips', [CompletionResultType]::ParameterName, 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob''s dump does)')
            [CompletionResult]::new('--elasticjob', '--elasticjob', [CompletionResultType]::ParameterName, 'Print ElasticJob''s dump lines (`path | value`), as a Java worker''s dump port answers')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show the secrets of job configurations (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of `****`')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;history' {
            [CompletionResult]::new('--item', '--item', [CompletionResultType]::ParameterName, 'Only this sharding item')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only runs that started within this long (`30m`, `2h`, `7d`) or since this time (RFC 3339, or `YYYY-MM-DD HH:MM:SS` local)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Only runs of this source')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'At most this many runs (newest first)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many runs (newest first)')
            [CompletionResult]::new('--trace', '--trace', [CompletionResultType]::ParameterName, 'The trace store: a SQLite file or a postgres:// URL (default: the workers'' default SQLite file on this machine)')
            [CompletionResult]::new('--job-file', '--job-file', [CompletionResultType]::ParameterName, 'Take the trace store from the trace table of this job file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only runs that failed or were killed')
            [CompletionResult]::new('--output-tail', '--output-tail', [CompletionResultType]::ParameterName, 'Print the captured output of the item''s last run (needs --item)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;why' {
            [CompletionResult]::new('--item', '--item', [CompletionResultType]::ParameterName, 'Only this sharding item')
            [CompletionResult]::new('--fire', '--fire', [CompletionResultType]::ParameterName, 'Account for this past fire: was it run in time, late (and why), or not (RFC 3339; `YYYY-MM-DD HH:MM:SS` or a time of day `HH:MM[:SS]` in the job''s time zone, a time of day being its latest occurrence; or a duration ago such as `10m`)')
            [CompletionResult]::new('--trace', '--trace', [CompletionResultType]::ParameterName, 'The trace store: a SQLite file or a postgres:// URL (default: the workers'' default SQLite file on this machine)')
            [CompletionResult]::new('--job-file', '--job-file', [CompletionResultType]::ParameterName, 'Take the trace store from the trace table of this job file')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (`wide`: a table with every column)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort table rows by this column (its header, case-insensitive: `--sort-by name`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Tables and plain rows without the header line')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;console' {
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Print one frame of the jobs view, COLS wide and ROWS high, as plain text after the first read of the namespace, and exit')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--tls-ca', '--tls-ca', [CompletionResultType]::ParameterName, 'CA certificate (PEM) of a ZooKeeper reached over TLS; turns TLS on')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'Client certificate (PEM) for ZooKeeper''s x509 authentication over TLS')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'The client certificate''s private key (PEM)')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry (default 5s)')
            [CompletionResult]::new('--readonly', '--readonly', [CompletionResultType]::ParameterName, 'Refuse every write: action keys only say why (a context may also say `readonly = true`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, '`--yes` before the command, or between a command group and its subcommand (`ejctl job -y list`); global so that a command without a `--yes` of its own (the console) takes it too')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;completions' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;man' {
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Accepted for scripts and ignored: this command never asks for confirmation')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more); `-v` names the registry a command used')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the jobs of one or more job files (the worker runtime)')
            [CompletionResult]::new('job', 'job', [CompletionResultType]::ParameterValue, 'Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Read and change job configurations')
            [CompletionResult]::new('server', 'server', [CompletionResultType]::ParameterValue, 'Servers (IPs): list, disable, enable, shutdown, remove')
            [CompletionResult]::new('instance', 'instance', [CompletionResultType]::ParameterValue, 'Live instances')
            [CompletionResult]::new('sharding', 'sharding', [CompletionResultType]::ParameterValue, 'Sharding items: show, disable, enable, and preview what a strategy assigns')
            [CompletionResult]::new('failover', 'failover', [CompletionResultType]::ParameterValue, 'Failover items')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Named registries (connect string, namespace, digest), like kubectl contexts')
            [CompletionResult]::new('cron', 'cron', [CompletionResultType]::ParameterValue, 'Check cron expressions')
            [CompletionResult]::new('dump', 'dump', [CompletionResultType]::ParameterValue, 'Print the registry tree (or one job''s) with node values')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Runs of a job from the trace store: fire, item, instance, start, duration, result')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Why a job (or item) did not run, or will not run next; with evidence and the fix')
            [CompletionResult]::new('console', 'console', [CompletionResultType]::ParameterValue, 'A live full-screen console of the namespace: views, filters, actions with confirmations')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;help;run' {
            break
        }
        'ejctl;help;job' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace: status, cron, next fire, instances, items, description')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one job: configuration, servers, instances, sharding, failover and leader')
            [CompletionResult]::new('trigger', 'trigger', [CompletionResultType]::ParameterValue, 'Trigger a job now on every live instance; --wait follows the items until they finish')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable a job on every server, or on one with --server (its items move elsewhere)')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable a job on every server, or on one with --server')
            [CompletionResult]::new('pause', 'pause', [CompletionResultType]::ParameterValue, 'Pause a job: the same as disable (ElasticJob 3.x folded 2.x''s pause into DISABLED)')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a job: the same as enable')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut a job''s instances down (all, or those of one server); they stay down until restarted')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a job from its servers (shutdown, then delete servers/*); --purge deletes the job')
            break
        }
        'ejctl;help;job;list' {
            break
        }
        'ejctl;help;job;show' {
            break
        }
        'ejctl;help;job;trigger' {
            break
        }
        'ejctl;help;job;disable' {
            break
        }
        'ejctl;help;job;enable' {
            break
        }
        'ejctl;help;job;pause' {
            break
        }
        'ejctl;help;job;resume' {
            break
        }
        'ejctl;help;job;shutdown' {
            break
        }
        'ejctl;help;job;remove' {
            break
        }
        'ejctl;help;config' {
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a job''s configuration YAML as stored, its secrets masked unless --show-secrets')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Change configuration keys, validated and written with a version check')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Edit a job''s configuration in $VISUAL / $EDITOR, validated and written with a version check')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Write the configurations of job files to the registry (created, updated or unchanged)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what `config apply` would change (or how two job files differ); exit 1 on a difference')
            break
        }
        'ejctl;help;config;get' {
            break
        }
        'ejctl;help;config;set' {
            break
        }
        'ejctl;help;config;edit' {
            break
        }
        'ejctl;help;config;apply' {
            break
        }
        'ejctl;help;config;diff' {
            break
        }
        'ejctl;help;server' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace with their instances and jobs')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server: its jobs, their status there, its instances and their items')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable every job on a server: its instances get no items')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable every job on a server')
            [CompletionResult]::new('shutdown', 'shutdown', [CompletionResultType]::ParameterValue, 'Shut down every job instance on a server (the processes stop their jobs until restarted)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Shut a server''s instances down and delete its servers/{ip} node from every job')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'List the servers/{ip} nodes nothing uses any more (no live instance, no sharding item on that IP, not disabled), across every job; with --yes, delete them')
            break
        }
        'ejctl;help;server;list' {
            break
        }
        'ejctl;help;server;show' {
            break
        }
        'ejctl;help;server;disable' {
            break
        }
        'ejctl;help;server;enable' {
            break
        }
        'ejctl;help;server;shutdown' {
            break
        }
        'ejctl;help;server;remove' {
            break
        }
        'ejctl;help;server;prune' {
            break
        }
        'ejctl;help;instance' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances of every job, or of one job')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one instance (`IP@-@PID`): the jobs it runs, leadership and owned items')
            break
        }
        'ejctl;help;instance;list' {
            break
        }
        'ejctl;help;instance;show' {
            break
        }
        'ejctl;help;sharding' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a job''s items: owner, server IP, status, failover owner, disabled')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable sharding items: their owners skip them until they are enabled again')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable sharding items that were disabled')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            break
        }
        'ejctl;help;sharding;show' {
            break
        }
        'ejctl;help;sharding;disable' {
            break
        }
        'ejctl;help;sharding;enable' {
            break
        }
        'ejctl;help;sharding;plan' {
            break
        }
        'ejctl;help;failover' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List pending failover items and the instances failing items over now, of every job or one')
            break
        }
        'ejctl;help;failover;list' {
            break
        }
        'ejctl;help;context' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts; `*` marks the current one')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one context (default: the one in use)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and --trace')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a context the current one')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context (and clear the current context if it was that one)')
            break
        }
        'ejctl;help;context;list' {
            break
        }
        'ejctl;help;context;show' {
            break
        }
        'ejctl;help;context;set' {
            break
        }
        'ejctl;help;context;use' {
            break
        }
        'ejctl;help;context;delete' {
            break
        }
        'ejctl;help;cron' {
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Print the next fire instants of a Quartz cron expression')
            break
        }
        'ejctl;help;cron;next' {
            break
        }
        'ejctl;help;dump' {
            break
        }
        'ejctl;help;history' {
            break
        }
        'ejctl;help;why' {
            break
        }
        'ejctl;help;console' {
            break
        }
        'ejctl;help;completions' {
            break
        }
        'ejctl;help;man' {
            break
        }
        'ejctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
