
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
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;run' {
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Log format on stderr')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;job;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;job;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;job;help;list' {
            break
        }
        'ejctl;job;help;help' {
            break
        }
        'ejctl;config' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Print a job''s configuration')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;config;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;config;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Print a job''s configuration')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;config;help;list' {
            break
        }
        'ejctl;config;help;help' {
            break
        }
        'ejctl;server' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;server;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;server;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;server;help;list' {
            break
        }
        'ejctl;server;help;help' {
            break
        }
        'ejctl;instance' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;instance;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;instance;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;instance;help;list' {
            break
        }
        'ejctl;instance;help;help' {
            break
        }
        'ejctl;sharding' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;sharding;plan' {
            [CompletionResult]::new('--strategy', '--strategy', [CompletionResultType]::ParameterName, 'AVG_ALLOCATION, ODEVITY, ROUND_ROBIN or SINGLE_SHARDING_BALANCE')
            [CompletionResult]::new('--job-name', '--job-name', [CompletionResultType]::ParameterName, 'The job name (ODEVITY, ROUND_ROBIN and SINGLE_SHARDING_BALANCE hash it)')
            [CompletionResult]::new('--instances', '--instances', [CompletionResultType]::ParameterName, 'Instance ids, comma-separated (`ip@-@pid`)')
            [CompletionResult]::new('--total', '--total', [CompletionResultType]::ParameterName, 'shardingTotalCount')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--keep-order', '--keep-order', [CompletionResultType]::ParameterName, 'Use the instances in the order given instead of ElasticJob''s (reverse lexicographic)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;sharding;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;sharding;help;plan' {
            break
        }
        'ejctl;sharding;help;help' {
            break
        }
        'ejctl;failover' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List failover items of a job')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;failover;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;failover;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List failover items of a job')
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
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;context;list' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;context;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;context;help;list' {
            break
        }
        'ejctl;context;help;help' {
            break
        }
        'ejctl;cron' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Print the next fire instants of a Quartz cron expression')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;cron;next' {
            [CompletionResult]::new('--time-zone', '--time-zone', [CompletionResultType]::ParameterName, 'Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Start after this instant (RFC 3339); default: now')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many instants to print')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many instants to print')
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
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
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--mask-ips', '--mask-ips', [CompletionResultType]::ParameterName, 'Replace IPv4 addresses with ip1, ip2, ... (as ElasticJob''s dump does)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;completions' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ejctl;man' {
            [CompletionResult]::new('--zk', '--zk', [CompletionResultType]::ParameterName, 'ZooKeeper connect string')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Registry namespace (the ZooKeeper chroot the jobs live under)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Use a named registry from the contexts file (see `ejctl context`)')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Digest credentials for a registry that uses ACLs')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Answer yes to confirmations (needed without a terminal)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (repeat for more)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only errors on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
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
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write the man pages into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ejctl;help;run' {
            break
        }
        'ejctl;help;job' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the jobs of the namespace')
            break
        }
        'ejctl;help;job;list' {
            break
        }
        'ejctl;help;config' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Print a job''s configuration')
            break
        }
        'ejctl;help;config;list' {
            break
        }
        'ejctl;help;server' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the servers (IPs) of the namespace')
            break
        }
        'ejctl;help;server;list' {
            break
        }
        'ejctl;help;instance' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the live instances')
            break
        }
        'ejctl;help;instance;list' {
            break
        }
        'ejctl;help;sharding' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Preview what a sharding strategy assigns, without a registry')
            break
        }
        'ejctl;help;sharding;plan' {
            break
        }
        'ejctl;help;failover' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List failover items of a job')
            break
        }
        'ejctl;help;failover;list' {
            break
        }
        'ejctl;help;context' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the registry contexts')
            break
        }
        'ejctl;help;context;list' {
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
