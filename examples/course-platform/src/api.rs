//! The Academy's own API, which the agent reaches through the `search` and
//! `execute` tools (and any client at `/api`, with the same bearer token).
//!
//! Each handler's doc comment says what the route is for, and its `x-skill`
//! extension when an agent calls it and where it comes in a real
//! conversation: utoipa turns both into the OpenAPI document, from which
//! `skills_runtime::openapi::api_reference` renders the `academy` skill's
//! `references/api.md`. The example's tests fail when a route changes and
//! that file does not (`SKILLS_UPDATE=1 cargo test -p course-platform`
//! rewrites it), and when the document's routes and the router's differ.

use axum::extract::{Extension, Path, State};
use axum::http::{Method, StatusCode};
use axum::routing::{MethodFilter, on};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use skills_runtime::Skills;
use utoipa::{OpenApi, ToSchema};

use crate::db::{Course, Db, Entitlements};

/// What the handlers share.
#[derive(Clone)]
pub struct Api {
    db: Db,
    skills: Skills,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Kestrel Academy API",
        version = "1.0.0",
        description = "The learner's own view of Kestrel Academy: who they are, the courses on sale, and orders. Every route answers as the signed-in learner; nothing here can act for another learner."
    ),
    servers((url = "/api")),
    paths(me, courses, course, quote, confirm, order)
)]
pub struct ApiDoc;

/// The OpenAPI document of the API, as JSON.
pub fn document() -> serde_json::Value {
    serde_json::to_value(ApiDoc::openapi()).expect("an OpenAPI document is JSON")
}

/// The router of the API, and the (method, path) of every route it serves:
/// routes are only added through [`Routes::add`], which records them, so a
/// test can compare them with the document's.
pub fn router(db: Db, skills: Skills) -> (Router, Vec<(Method, &'static str)>) {
    let routes = Routes::default()
        .add(Method::GET, "/me", me)
        .add(Method::GET, "/courses", courses)
        .add(Method::GET, "/courses/{slug}", course)
        .add(Method::POST, "/orders", quote)
        .add(Method::POST, "/orders/{id}/confirm", confirm)
        .add(Method::GET, "/orders/{id}", order);
    (routes.router.with_state(Api { db, skills }), routes.table)
}

#[derive(Default)]
struct Routes {
    router: Router<Api>,
    table: Vec<(Method, &'static str)>,
}

impl Routes {
    fn add<H, T>(mut self, method: Method, path: &'static str, handler: H) -> Self
    where
        H: axum::handler::Handler<T, Api>,
        T: 'static,
    {
        let filter = MethodFilter::try_from(method.clone()).expect("a method axum routes");
        self.router = self.router.route(path, on(filter, handler));
        self.table.push((method, path));
        self
    }
}

/// An API error: a status and a sentence for the agent to relay.
#[derive(Debug, Serialize, ToSchema)]
pub struct Problem {
    /// What went wrong, in words the learner can be told.
    error: String,
}

type Answer<T> = Result<Json<T>, (StatusCode, Json<Problem>)>;

fn problem(status: StatusCode, error: impl Into<String>) -> (StatusCode, Json<Problem>) {
    (
        status,
        Json(Problem {
            error: error.into(),
        }),
    )
}

fn unavailable(error: anyhow::Error) -> (StatusCode, Json<Problem>) {
    tracing::error!("the database failed: {error:#}");
    problem(
        StatusCode::SERVICE_UNAVAILABLE,
        "the Academy cannot answer right now; try again in a minute",
    )
}

/// The signed-in learner.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// The learner's id.
    id: String,
    /// The learner's name, to greet them with.
    name: String,
    /// The slugs of the courses the learner owns.
    courses: Vec<String>,
}

/// A course, as the signed-in learner sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct CourseView {
    /// The course's slug: its id in every route, and its skill's name.
    slug: String,
    /// The course's title.
    title: String,
    /// What the course covers, in one sentence.
    summary: String,
    /// How many lessons it has.
    lessons: u32,
    /// The price, with its currency (`EUR 49.00`).
    price: String,
    /// Whether the learner owns it.
    owned: bool,
    /// The course's skill, to load when the learner works on it; only for
    /// a course they own.
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<String>,
}

/// What a quote asks for.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewOrder {
    /// The slug of the course the learner asked to buy.
    course: String,
}

/// Where an order stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A price to state; nothing is charged.
    Quoted,
    /// Confirmed; waiting for the learner to pay through the link.
    AwaitingPayment,
    /// Paid: the course is the learner's.
    Paid,
}

/// An order of the signed-in learner.
#[derive(Debug, Serialize, ToSchema)]
pub struct OrderView {
    /// The order's id, for the next steps.
    id: i64,
    /// The course's slug.
    course: String,
    /// The course's title.
    title: String,
    /// The price, with its currency: state it exactly.
    price: String,
    status: Status,
    /// Where the learner pays; only once confirmed and not yet paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    payment_link: Option<String>,
    /// What to do next, in one sentence.
    next_step: String,
}

impl Api {
    fn view(&self, course: Course, entitlements: &Entitlements) -> CourseView {
        let owned = entitlements.owned.contains(&course.slug);
        let skill = owned
            .then(|| self.skills.get(&format!("courses/{}", course.slug)))
            .flatten()
            .map(|skill| skill.uri().to_owned());
        CourseView {
            price: course.price(),
            slug: course.slug,
            title: course.title,
            summary: course.summary,
            lessons: course.lessons,
            owned,
            skill,
        }
    }
}

fn order_view(order: crate::db::Order) -> OrderView {
    let (status, payment_link, next_step) = match order.status {
        "paid" => (
            Status::Paid,
            None,
            "Paid: the course's skill is now in your skills list; load it and start.".to_owned(),
        ),
        "awaiting_payment" => (
            Status::AwaitingPayment,
            Some(format!(
                "https://pay.kestrel-academy.example/checkout/{}",
                order.id
            )),
            "Give the learner the payment link; check this order again when they say they paid."
                .to_owned(),
        ),
        _ => (
            Status::Quoted,
            None,
            format!(
                "State the price ({}) and ask for an explicit yes; only then confirm this order.",
                order.course.price()
            ),
        ),
    };
    OrderView {
        id: order.id,
        price: order.course.price(),
        course: order.course.slug,
        title: order.course.title,
        status,
        payment_link,
        next_step,
    }
}

/// Who the learner is
///
/// The signed-in learner's name and the courses they own.
#[utoipa::path(
    get, path = "/me",
    responses((status = 200, description = "The learner", body = Me)),
    extensions(("x-skill" = json!({
        "order": 1,
        "when": "At the start of a conversation about the learner's courses or account: to greet them by name and know what they already own."
    })))
)]
async fn me(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
) -> Answer<Me> {
    let name = api
        .db
        .learner_name(&entitlements.learner)
        .await
        .map_err(unavailable)?
        .unwrap_or_else(|| entitlements.learner.clone());
    let mut courses: Vec<String> = entitlements
        .owned
        .iter()
        .filter(|skill| entitlements.offers.contains_key(skill.as_str()))
        .cloned()
        .collect();
    courses.sort();
    Ok(Json(Me {
        id: entitlements.learner,
        name,
        courses,
    }))
}

/// The courses on sale
///
/// Every course on sale, with its price and whether the learner owns it.
#[utoipa::path(
    get, path = "/courses",
    responses((status = 200, description = "The courses, by slug", body = Vec<CourseView>)),
    extensions(("x-skill" = json!({
        "order": 2,
        "when": "When the learner asks what they can learn, or names a course you need the slug of. Never guess a slug."
    })))
)]
async fn courses(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
) -> Answer<Vec<CourseView>> {
    let courses = api.db.courses().await.map_err(unavailable)?;
    Ok(Json(
        courses
            .into_iter()
            .map(|course| api.view(course, &entitlements))
            .collect(),
    ))
}

/// One course
///
/// A course's summary, lessons, price, and whether the learner owns it.
#[utoipa::path(
    get, path = "/courses/{slug}",
    params(("slug" = String, Path, description = "The course's slug, from `GET /courses`.")),
    responses(
        (status = 200, description = "The course", body = CourseView),
        (status = 404, description = "No course on sale has this slug", body = Problem)
    ),
    extensions(("x-skill" = json!({
        "order": 3,
        "when": "Before you describe or recommend a course, and in step 2 of a purchase, to summarise what it covers."
    })))
)]
async fn course(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
    Path(slug): Path<String>,
) -> Answer<CourseView> {
    let course = api
        .db
        .course(&slug)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| {
            problem(
                StatusCode::NOT_FOUND,
                format!("no course on sale is called `{slug}`"),
            )
        })?;
    Ok(Json(api.view(course, &entitlements)))
}

/// Quote a course
///
/// Creates an order in the state `quoted`, with the price to state to the learner. It charges nothing and commits the learner to nothing.
#[utoipa::path(
    post, path = "/orders",
    request_body = NewOrder,
    responses(
        (status = 201, description = "The quote", body = OrderView),
        (status = 404, description = "No course on sale has this slug", body = Problem),
        (status = 409, description = "The learner already owns this course", body = Problem)
    ),
    extensions(("x-skill" = json!({
        "order": 4,
        "when": "Step 1 of a purchase, and only when the learner asked to buy a course they named: then state its price and ask for an explicit yes."
    })))
)]
async fn quote(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
    Json(new): Json<NewOrder>,
) -> Result<(StatusCode, Json<OrderView>), (StatusCode, Json<Problem>)> {
    if entitlements.owned.contains(&new.course) {
        return Err(problem(
            StatusCode::CONFLICT,
            format!("the learner already owns `{}`", new.course),
        ));
    }
    let learner = &entitlements.learner;
    let order = async {
        let Some(course) = api.db.course(&new.course).await? else {
            return Ok(None);
        };
        let id = api.db.quote(learner, &course).await?;
        api.db.order(learner, id).await
    }
    .await
    .map_err(unavailable)?
    .ok_or_else(|| {
        problem(
            StatusCode::NOT_FOUND,
            format!("no course on sale is called `{}`", new.course),
        )
    })?;
    Ok((StatusCode::CREATED, Json(order_view(order))))
}

/// Confirm an order
///
/// Confirms a quoted order after the learner said yes, and returns the payment link. It does not charge: the learner pays on the linked page.
#[utoipa::path(
    post, path = "/orders/{id}/confirm",
    params(("id" = i64, Path, description = "The order's id, from `POST /orders`.")),
    responses(
        (status = 200, description = "The order, awaiting payment, with its payment link", body = OrderView),
        (status = 404, description = "The learner has no order with this id", body = Problem),
        (status = 409, description = "The order is not a quote any more (already confirmed)", body = Problem)
    ),
    extensions(("x-skill" = json!({
        "order": 5,
        "when": "Step 4 of a purchase: only after the learner answered an explicit yes to the quoted price, in a later turn than the quote. Never twice for one order."
    })))
)]
async fn confirm(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
    Path(id): Path<i64>,
) -> Answer<OrderView> {
    let learner = entitlements.learner;
    let confirmed = api.db.confirm(&learner, id).await.map_err(unavailable)?;
    let order = api.db.order(&learner, id).await.map_err(unavailable)?;
    match (confirmed, order) {
        (_, None) => Err(problem(StatusCode::NOT_FOUND, format!("no order {id}"))),
        (false, Some(_)) => Err(problem(
            StatusCode::CONFLICT,
            format!("order {id} was already confirmed; do not confirm it again"),
        )),
        (true, Some(order)) => Ok(Json(order_view(order))),
    }
}

/// Check an order
///
/// Where an order stands: quoted, awaiting payment, or paid.
#[utoipa::path(
    get, path = "/orders/{id}",
    params(("id" = i64, Path, description = "The order's id.")),
    responses(
        (status = 200, description = "The order", body = OrderView),
        (status = 404, description = "The learner has no order with this id", body = Problem)
    ),
    extensions(("x-skill" = json!({
        "order": 6,
        "when": "Step 6 of a purchase: when the learner says they paid, before you tell them the course is theirs."
    })))
)]
async fn order(
    State(api): State<Api>,
    Extension(entitlements): Extension<Entitlements>,
    Path(id): Path<i64>,
) -> Answer<OrderView> {
    let learner = entitlements.learner;
    let order = api
        .db
        .order(&learner, id)
        .await
        .map_err(unavailable)?
        .ok_or_else(|| problem(StatusCode::NOT_FOUND, format!("no order {id}")))?;
    Ok(Json(order_view(order)))
}
