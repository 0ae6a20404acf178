#!/bin/sh
# Prints what ElasticJob hands a script job: its arguments, the sharding context JSON last.
echo "hello from item $EJCTL_SHARDING_ITEM of $EJCTL_SHARDING_TOTAL_COUNT ($EJCTL_SHARDING_PARAMETER): $*"
