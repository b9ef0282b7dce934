//! What every request passes through: a state-changing request from
//! another origin's page refused, its body read whole under a deadline
//! and a size cap before any handler sees it, and every error
//! answer made the API's `{"error": ...}` JSON, the router's own (405, an
//! unreadable path) included.

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::error::ApiError;
use super::messages::Message;

/// Largest request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// Longest error text of the router's own kept in the JSON answer.
const MAX_ERROR_TEXT: usize = 1024;

/// Whether a request's `Origin` (if any) names the host it was sent to:
/// `http://127.0.0.1:8080` sent to `Host: 127.0.0.1:8080`.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let origin = origin.to_str().ok().and_then(|o| o.split_once("://"));
    let host = headers
        .get(header::HOST)
        .and_then(|host| host.to_str().ok());
    match (origin, host) {
        (Some((_, origin_host)), Some(host)) => origin_host.eq_ignore_ascii_case(host),
        _ => false,
    }
}

/// Refuses (403) a state-changing request whose `Origin` header names
/// another origin than the host it was sent to: another site's page may
/// not play, join or change a group with the cookies of this one.
pub async fn cross_origin(request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if !safe && !same_origin(request.headers()) {
        return ApiError::forbidden(Message::CrossOrigin).into_response();
    }
    next.run(request).await
}

/// Reads the body of `request` whole, within `deadline` from the end of
/// its header and at most [`MAX_BODY`] bytes, then hands it on.
pub async fn read_body(State(deadline): State<Duration>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(deadline, Limited::new(body, MAX_BODY).collect()).await;
    let bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return ApiError::too_large(Message::BodyTooLarge(MAX_BODY / 1024)).into_response()
        }
        Ok(Err(_)) => return ApiError::bad_request(Message::BodyUnreadable).into_response(),
        Err(_) => {
            return ApiError::timeout(Message::BodyTimeout(deadline.as_millis())).into_response()
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// An error answer that is not JSON yet (the router's 405, a path it could
/// not read, an extractor's refusal) as `{"error": "<its text>"}`, the
/// status and other headers kept, of code `other` (the text is the
/// router's, not the server's).
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_ERROR_TEXT)
        .await
        .unwrap_or_else(|_| Bytes::new());
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase(),
        text => text.to_string(),
    };
    let body = Message::Other(message).error_body().to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(name.clone(), HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn only_the_hosts_own_origin_passes() {
        let host = (header::HOST, "127.0.0.1:8080");
        assert!(same_origin(&headers(std::slice::from_ref(&host))));
        assert!(same_origin(&headers(&[
            host.clone(),
            (header::ORIGIN, "http://127.0.0.1:8080")
        ])));
        for origin in [
            "http://evil.example",
            "http://127.0.0.1:8081",
            "null",
            "http://127.0.0.1:8080.evil.example",
        ] {
            assert!(
                !same_origin(&headers(&[host.clone(), (header::ORIGIN, origin)])),
                "{origin}"
            );
        }
        assert!(!same_origin(&headers(&[(
            header::ORIGIN,
            "http://127.0.0.1:8080"
        )])));
    }
}
