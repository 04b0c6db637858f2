/**
 * SKU reviews, their forms, votes and flags. The Catalog API documentation names these endpoints
 * without showing them: every shape here is from recorded answers.
 */
import * as z from 'zod/mini';
import { answer, type Infer, maybe, openEnum, type Schema } from '../common.js';
import { bool, created, id, listPage, num, Pagination, single, text, texts } from './base.js';

const reviewSentimentsShape = () => ({ positive: texts, mediocre: texts, negative: texts });
/** Aspects of the SKU the reviewer judged, grouped by verdict. */
export interface ReviewSentiments extends Infer<typeof reviewSentimentsShape> {}
export const ReviewSentiments: Schema<ReviewSentiments> = /* @__PURE__ */ answer(reviewSentimentsShape);

const skuReviewShape = () => ({
  id,
  /** In the create, update and vote answers. */
  sku_id: num,
  user_id: num,
  review: text,
  rating: num,
  created_at: text,
  /** Demoted reviews are listed after the others. */
  demoted: bool,
  votes_count: num,
  helpful_votes_count: num,
  /** Only for requests made with a user token. */
  voted: bool,
  /** Only for requests made with a user token. */
  flagged: bool,
  /** Only for requests made with a user token. */
  helpful: bool,
  sentiments: maybe(ReviewSentiments),
});
/** A SKU review. Shape from recorded answers; the documentation does not show it. */
export interface SkuReview extends Infer<typeof skuReviewShape> {}
export const SkuReview: Schema<SkuReview> = /* @__PURE__ */ answer(skuReviewShape);

const reviewAggregateShape = () => ({
  /** The judged aspect. */
  label: text,
  /** 0 to 100. */
  score: num,
  /** Seen: `good`. */
  style: text,
});
/** An entry of `meta.sku_reviews_aggregation`. Shape from recorded answers; the documentation does not show it. */
export interface ReviewAggregate extends Infer<typeof reviewAggregateShape> {}
export const ReviewAggregate: Schema<ReviewAggregate> = /* @__PURE__ */ answer(reviewAggregateShape);

const skuRatingBreakdownEntryShape = () => ({ star: num, percentage: num, count: num });
/** An entry of `meta.sku_rating_breakdown`. Shape from recorded answers; the documentation does not show it. */
export interface SkuRatingBreakdownEntry extends Infer<typeof skuRatingBreakdownEntryShape> {}
export const SkuRatingBreakdownEntry: Schema<SkuRatingBreakdownEntry> = /* @__PURE__ */ answer(skuRatingBreakdownEntryShape);

const skuReviewsMetaShape = () => ({
  pagination: maybe(Pagination),
  /** With `include_meta=sku_reviews_aggregation`. */
  sku_reviews_aggregation: maybe(z.array(ReviewAggregate)),
  /** With `include_meta=sku_rating_breakdown`. */
  sku_rating_breakdown: maybe(z.array(SkuRatingBreakdownEntry)),
});
/** `meta` of a SKU's reviews. Shape from recorded answers; the documentation does not show it. */
export interface SkuReviewsMeta extends Infer<typeof skuReviewsMetaShape> {}
export const SkuReviewsMeta: Schema<SkuReviewsMeta> = /* @__PURE__ */ answer(skuReviewsMetaShape);

const reviewFormAnswerOptionShape = () => ({
  /** Sent back in a review's `answer_ids`. */
  id,
  text,
  /** In the edit form: the reviewer's earlier choice. */
  selected: bool,
});
export interface ReviewFormAnswerOption extends Infer<typeof reviewFormAnswerOptionShape> {}
export const ReviewFormAnswerOption: Schema<ReviewFormAnswerOption> = /* @__PURE__ */ answer(reviewFormAnswerOptionShape);

const reviewFormQuestionShape = () => ({
  text,
  /** Seen: `profiling_multiple`, `eval_sentiment`. */
  type: maybe(openEnum(['profiling_multiple', 'eval_sentiment'])),
  answers: maybe(z.array(ReviewFormAnswerOption)),
});
export interface ReviewFormQuestion extends Infer<typeof reviewFormQuestionShape> {}
export const ReviewFormQuestion: Schema<ReviewFormQuestion> = /* @__PURE__ */ answer(reviewFormQuestionShape);

const reviewFormShape = () => ({
  /** Whether the review text is required. */
  requires_body: bool,
  /** In the edit form. */
  rating: num,
  /** In the edit form. */
  review: text,
  questions: maybe(z.array(ReviewFormQuestion)),
});
/** The new-review and edit-review form. Shape from recorded answers; the documentation does not show it. */
export interface ReviewForm extends Infer<typeof reviewFormShape> {}
export const ReviewForm: Schema<ReviewForm> = /* @__PURE__ */ answer(reviewFormShape);

const skuReviewVoteShape = () => ({
  id,
  sku_review_id: num,
  user_id: num,
  helpful: bool,
  created_at: text,
  /** With `embed=sku_review`. */
  sku_review: maybe(SkuReview),
});
/** A vote on a SKU review. Shape from recorded answers; the documentation does not show it. */
export interface SkuReviewVote extends Infer<typeof skuReviewVoteShape> {}
export const SkuReviewVote: Schema<SkuReviewVote> = /* @__PURE__ */ answer(skuReviewVoteShape);

const skuReviewFlagShape = () => ({
  id,
  flaggable_id: num,
  /** `SkuReview`. */
  flaggable_type: text,
  user_id: num,
  /** One of the reasons of `GET /flags`. */
  reason: text,
  created_at: text,
  updated_at: text,
});
/**
 * The answer of `POST /skus/:sku_id/reviews/:review_id/flags`: a bare object,
 * no root key. Shape from recorded answers; the documentation does not show it.
 */
export interface SkuReviewFlag extends Infer<typeof skuReviewFlagShape> {}
export const SkuReviewFlag: Schema<SkuReviewFlag> = /* @__PURE__ */ answer(skuReviewFlagShape);

/** `GET /skus/:id/reviews`. Shape from recorded answers; the documentation does not show it. */
export const SkuReviewsPage = /* @__PURE__ */ listPage('reviews', SkuReview, SkuReviewsMeta);
export interface SkuReviewsPage extends z.output<typeof SkuReviewsPage> {}

/**
 * `POST /skus/:sku_id/reviews` (201), `PUT /skus/:sku_id/reviews/:id`.
 * Shape from recorded answers; the documentation does not show it.
 */
export const SkuReviewAnswer = /* @__PURE__ */ single('sku_review', SkuReview);
export interface SkuReviewAnswer extends z.output<typeof SkuReviewAnswer> {}

/**
 * `GET /skus/:sku_id/reviews/new`, `GET /skus/:sku_id/reviews/:id/edit`.
 * Shape from recorded answers; the documentation does not show it.
 */
export const ReviewFormAnswer = /* @__PURE__ */ single('review_form', ReviewForm);
export interface ReviewFormAnswer extends z.output<typeof ReviewFormAnswer> {}

/**
 * `POST /skus/:sku_id/reviews/:id/votes` (201). Shape from recorded answers; the documentation
 * does not show it. Older recordings send the vote bare, without its root key.
 */
export const SkuReviewVoteAnswer = /* @__PURE__ */ created('sku_review_vote', SkuReviewVote);
export interface SkuReviewVoteAnswer extends z.output<typeof SkuReviewVoteAnswer> {}
