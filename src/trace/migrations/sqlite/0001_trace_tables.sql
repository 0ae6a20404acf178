-- ElasticJob's trace tables for SQLite. ElasticJob has no SQLite dialect (it would use its
-- SQL92 file); these follow its H2 dialect (`is_success INT`, idempotent creates), which SQLite
-- reads as is. TIMESTAMP columns hold the writer's local wall-clock time as text
-- (`YYYY-MM-DD HH:MM:SS.SSS`), as ElasticJob's JDBC writes do. JOB_STATUS_TRACE_LOG keeps the
-- `source` column of 3.0.4 and earlier, which the ElasticJob UI maps.
CREATE TABLE IF NOT EXISTS JOB_EXECUTION_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, task_id VARCHAR(255) NOT NULL, hostname VARCHAR(255) NOT NULL, ip VARCHAR(50) NOT NULL, sharding_item INT NOT NULL, execution_source VARCHAR(20) NOT NULL, failure_cause VARCHAR(4000) NULL, is_success INT NOT NULL, start_time TIMESTAMP NULL, complete_time TIMESTAMP NULL, PRIMARY KEY (id));
CREATE TABLE IF NOT EXISTS JOB_STATUS_TRACE_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, original_task_id VARCHAR(255) NOT NULL, task_id VARCHAR(255) NOT NULL, slave_id VARCHAR(50) NOT NULL, source VARCHAR(50) NOT NULL DEFAULT 'LITE_EXECUTOR', execution_type VARCHAR(20) NOT NULL, sharding_item VARCHAR(100) NOT NULL, state VARCHAR(20) NOT NULL, message VARCHAR(4000) NULL, creation_time TIMESTAMP NULL, PRIMARY KEY (id));
CREATE INDEX IF NOT EXISTS TASK_ID_STATE_INDEX ON JOB_STATUS_TRACE_LOG (task_id, state);
-- ejctl's own table: one row per run, keyed by JOB_EXECUTION_LOG.id; instants in epoch ms.
CREATE TABLE IF NOT EXISTS EJCTL_RUN_LOG (id VARCHAR(40) NOT NULL, job_name VARCHAR(100) NOT NULL, sharding_item INT NOT NULL, instance_id VARCHAR(255) NOT NULL, fire_source VARCHAR(20) NOT NULL, fire_ms BIGINT NOT NULL, start_ms BIGINT NOT NULL, lateness_ms BIGINT NOT NULL, end_ms BIGINT NULL, duration_ms BIGINT NULL, outcome VARCHAR(20) NULL, exit_code INT NULL, signal INT NULL, message VARCHAR(4000) NULL, output_tail TEXT NULL, trigger_token VARCHAR(100) NULL, PRIMARY KEY (id));
CREATE INDEX IF NOT EXISTS EJCTL_RUN_LOG_JOB_START ON EJCTL_RUN_LOG (job_name, start_ms);
