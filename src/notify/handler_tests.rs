//! Tests of the error handler settings and bodies.

use super::*;

fn cfg(kind: &str, props: &[(&str, &str)]) -> JobConfig {
    let mut c = JobConfig::new("job", 1);
    c.job_error_handler_type = Some(kind.to_string());
    c.props = props.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    c
}

#[test]
fn types_and_defaults() {
    assert_eq!(ErrorHandler::from_config(&JobConfig::new("job", 1)), Ok(ErrorHandler::Log));
    assert_eq!(ErrorHandler::from_config(&cfg("ignore", &[])), Ok(ErrorHandler::Ignore));
    assert_eq!(ErrorHandler::from_config(&cfg("THROW", &[])), Ok(ErrorHandler::Throw));
    let wechat = ErrorHandler::from_config(&cfg("WECHAT", &[("wechat.webhook", "http://x/")])).unwrap();
    let defaults = Timeouts { connect: Duration::from_millis(3000), read: Duration::from_millis(5000) };
    assert_eq!(
        wechat,
        ErrorHandler::Notify(Box::new(Notifier::WeChat { webhook: "http://x/".into(), timeouts: defaults }))
    );
}

#[test]
fn bad_properties_are_named() {
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        ("DINGTALK", &[], "props 'dingtalk.webhook' is required"),
        (
            "WECHAT",
            &[("wechat.webhook", "https://h/w"), ("wechat.readTimeoutMilliseconds", "0")],
            "'wechat.readTimeoutMilliseconds' must be an integer > 0",
        ),
        (
            "WEBHOOK",
            &[("webhook.url", "http://h:8080/w"), ("webhook.connectTimeoutMilliseconds", "x")],
            "'webhook.connectTimeoutMilliseconds'",
        ),
        ("WEBHOOK", &[("webhook.url", "gopher://h/x")], "'webhook.url' must be an http:// or https:// URL"),
        ("WECHAT", &[("wechat.webhook", "file:///etc/passwd")], "'wechat.webhook' must be an http://"),
        ("DINGTALK", &[("dingtalk.webhook", "https://")], "'dingtalk.webhook' must be an http://"),
        ("EMAIL", &[("email.host", "h")], "'email.port' is required"),
        ("EMAIL", &[("email.host", "h"), ("email.port", "70000")], "'email.port' must be a port number"),
        (
            "EMAIL",
            &[
                ("email.host", "h"),
                ("email.port", "25"),
                ("email.username", "u"),
                ("email.password", "p"),
                ("email.from", "f@x"),
            ],
            "'email.to' is required",
        ),
    ];
    for (kind, props, want) in cases {
        let err = ErrorHandler::from_config(&cfg(kind, props)).unwrap_err();
        assert!(err.contains(want), "{kind}: {err}");
    }
}

#[test]
fn email_settings() {
    let props = [
        ("email.host", "smtp.example.com"),
        ("email.port", "465"),
        ("email.username", "u"),
        ("email.password", "p"),
        ("email.from", "from@example.com"),
        ("email.to", "a@example.com,b@example.com"),
        ("email.useSsl", "false"),
    ];
    let ErrorHandler::Notify(notifier) = ErrorHandler::from_config(&cfg("EMAIL", &props)).unwrap() else {
        panic!("not a notification")
    };
    let Notifier::Email(e) = *notifier else { panic!("not email") };
    assert_eq!(e.to, ["a@example.com", "b@example.com"]);
    assert_eq!(e.subject, "ElasticJob error message");
    assert!(!e.use_ssl);
    assert!(!e.plaintext, "STARTTLS is required unless the job file says otherwise");
    assert_eq!(e.port, 465);
}

fn failure() -> Failure {
    Failure {
        job: "myJob".into(),
        item: Some(2),
        instance: "10.0.0.1@-@42".into(),
        source: "cron".into(),
        at: "2026-01-01T00:00:00Z".into(),
        exit_code: Some(1),
        reason: "exit code 1".into(),
        stderr_tail: "a<b & c=d\n".into(),
    }
}

#[test]
fn robot_body_escapes_as_gson() {
    let body = robot_body(&failure().text());
    assert_eq!(
        body,
        r#"{"msgtype":"text","text":{"content":"Job \u0027myJob\u0027 exception occur in job processing, caused by exit code 1\na\u003cb \u0026 c\u003dd\n"}}"#
    );
    let back: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(back["text"]["content"], failure().text());
}

#[test]
fn dingtalk_signing() {
    assert_eq!(dingtalk_url("https://oapi/robot/send?access_token=t", "", 5), "https://oapi/robot/send?access_token=t");
    assert_eq!(
        dingtalk_url("https://oapi/robot/send?access_token=t", "SECabc", 1_700_000_000_000),
        "https://oapi/robot/send?access_token=t&timestamp=1700000000000&sign=jcUpW0QmtKduN03n4JqQ0PBosVjqnM8gU7fIIvsDmCM%3D"
    );
}

#[test]
fn webhook_body_fields() {
    let v: serde_json::Value = serde_json::from_str(&webhook_body(&failure())).unwrap();
    assert_eq!(v["text"], failure().text());
    assert_eq!(v["content"]["text"], failure().text());
    assert_eq!(v["msg_type"], "text");
    assert_eq!(v["item"], 2);
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["job"], "myJob");
}
