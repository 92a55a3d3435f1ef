//! The extractors of axum whose rejections are the API's errors: a query,
//! a path or a form that does not parse is answered in the one error shape
//! ([`crate::error`]), saying what was wrong.

use crate::error::ApiError;
use axum::extract::{FromRequest, FromRequestParts};

/// A query string, as [`axum::extract::Query`] reads it.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// A path's parameters, as [`axum::extract::Path`] reads them.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// A form, as [`axum::Form`] reads it.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Form), rejection(ApiError))]
pub struct Form<T>(pub T);
