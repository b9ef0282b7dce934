//! The one error type of the API: an HTTP status and a typed [`Message`],
//! sent as `{"error": "<sentence>", "code": "...", "params": {...}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::messages::Message;

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: Message,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<Message>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed or asks for something illegal.
    pub fn bad_request(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 403: the request may not do this: a group's seat without its
    /// token, a creator's change by another member, another site's page.
    pub fn forbidden(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such game, seat or page.
    pub fn not_found(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 404 for a path the server does not serve.
    pub fn no_page() -> ApiError {
        ApiError::not_found(Message::NoPage)
    }

    /// 409: well-formed, but not now (the engine is to move, the game is
    /// over).
    pub fn conflict(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 408: the request did not arrive in time.
    pub fn timeout(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::REQUEST_TIMEOUT, message)
    }

    /// 413: the body is over the limit.
    pub fn too_large(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// 429: this client holds as many games as one client may.
    pub fn too_many(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// 503: the server holds as many games (or connections) as it may.
    pub fn full(message: impl Into<Message>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // The code and parameters let the page say it in its language.
        (self.status, axum::Json(self.message.error_body())).into_response()
    }
}
