-- ElasticJob's trace tables as its PostgreSQL dialect creates them (ecosystem/tracing/rdb,
-- META-INF/sql/PostgreSQL.properties), made idempotent: tables an ElasticJob cluster created
-- already are kept as they are. JOB_STATUS_TRACE_LOG keeps the `source` column of 3.0.4 and
-- earlier, which the ElasticJob UI still maps (NULL breaks it); its default lets 3.0.5+ Java
-- writers, which no longer send it, insert too.
CREATE TABLE IF NOT EXISTS JOB_EXECUTION_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, task_id VARCHAR(255) NOT NULL, hostname VARCHAR(255) NOT NULL, ip VARCHAR(50) NOT NULL, sharding_item INT NOT NULL, execution_source VARCHAR(20) NOT NULL, failure_cause VARCHAR(4000) NULL, is_success BOOLEAN NOT NULL, start_time TIMESTAMP NULL, complete_time TIMESTAMP NULL, PRIMARY KEY (id));
CREATE TABLE IF NOT EXISTS JOB_STATUS_TRACE_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, original_task_id VARCHAR(255) NOT NULL, task_id VARCHAR(255) NOT NULL, slave_id VARCHAR(50) NOT NULL, source VARCHAR(50) NOT NULL DEFAULT 'LITE_EXECUTOR', execution_type VARCHAR(20) NOT NULL, sharding_item VARCHAR(100) NOT NULL, state VARCHAR(20) NOT NULL, message VARCHAR(4000) NULL, creation_time TIMESTAMP NULL, PRIMARY KEY (id));
CREATE INDEX IF NOT EXISTS TASK_ID_STATE_INDEX ON JOB_STATUS_TRACE_LOG (task_id, state);
-- ejctl's own table: what ElasticJob's lack, one row per run, keyed by JOB_EXECUTION_LOG.id.
-- Instants are milliseconds since the epoch (ElasticJob's TIMESTAMPs are the writer's local
-- wall-clock time, ambiguous across a cluster).
CREATE TABLE IF NOT EXISTS EJCTL_RUN_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, sharding_item INT NOT NULL, instance_id VARCHAR(255) NOT NULL, fire_source VARCHAR(20) NOT NULL, fire_ms BIGINT NOT NULL, start_ms BIGINT NOT NULL, lateness_ms BIGINT NOT NULL, end_ms BIGINT NULL, duration_ms BIGINT NULL, outcome VARCHAR(20) NULL, exit_code INT NULL, signal INT NULL, message VARCHAR(4000) NULL, output_tail TEXT NULL, trigger_token VARCHAR(100) NULL, PRIMARY KEY (id));
CREATE INDEX IF NOT EXISTS EJCTL_RUN_LOG_JOB_START ON EJCTL_RUN_LOG (job_name, start_ms);
