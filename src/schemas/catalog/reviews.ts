/**
 * SKU reviews, their forms, votes and flags. Document 2 names these endpoints
 * without showing them: every shape here is from recorded answers.
 */
import * as z from 'zod/mini';
import { maybe, openEnum, record } from '../common.js';
import { bool, id, listPage, num, Pagination, single, text, texts } from './base.js';

/** Aspects of the SKU the reviewer judged, grouped by verdict. */
export const ReviewSentiments = record({ positive: texts, mediocre: texts, negative: texts });
export type ReviewSentiments = z.infer<typeof ReviewSentiments>;

/** A SKU review. Shape from recorded answers; the spec does not show it. */
export const SkuReview = record({
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
export type SkuReview = z.infer<typeof SkuReview>;

/** An entry of `meta.sku_reviews_aggregation`. Shape from recorded answers; the spec does not show it. */
export const ReviewAggregate = record({
  /** The judged aspect. */
  label: text,
  /** 0 to 100. */
  score: num,
  /** Seen: `good`. */
  style: text,
});
export type ReviewAggregate = z.infer<typeof ReviewAggregate>;

/** An entry of `meta.sku_rating_breakdown`. Shape from recorded answers; the spec does not show it. */
export const SkuRatingBreakdownEntry = record({ star: num, percentage: num, count: num });
export type SkuRatingBreakdownEntry = z.infer<typeof SkuRatingBreakdownEntry>;

/** `meta` of a SKU's reviews. Shape from recorded answers; the spec does not show it. */
export const SkuReviewsMeta = record({
  pagination: maybe(Pagination),
  /** With `include_meta=sku_reviews_aggregation`. */
  sku_reviews_aggregation: maybe(z.array(ReviewAggregate)),
  /** With `include_meta=sku_rating_breakdown`. */
  sku_rating_breakdown: maybe(z.array(SkuRatingBreakdownEntry)),
});
export type SkuReviewsMeta = z.infer<typeof SkuReviewsMeta>;

export const ReviewFormAnswerOption = record({
  /** Sent back in a review's `answer_ids`. */
  id,
  text,
  /** In the edit form: the reviewer's earlier choice. */
  selected: bool,
});
export type ReviewFormAnswerOption = z.infer<typeof ReviewFormAnswerOption>;

export const ReviewFormQuestion = record({
  text,
  /** Seen: `profiling_multiple`, `eval_sentiment`. */
  type: maybe(openEnum(['profiling_multiple', 'eval_sentiment'])),
  answers: maybe(z.array(ReviewFormAnswerOption)),
});
export type ReviewFormQuestion = z.infer<typeof ReviewFormQuestion>;

/** The new-review and edit-review form. Shape from recorded answers; the spec does not show it. */
export const ReviewForm = record({
  /** Whether the review text is required. */
  requires_body: bool,
  /** In the edit form. */
  rating: num,
  /** In the edit form. */
  review: text,
  questions: maybe(z.array(ReviewFormQuestion)),
});
export type ReviewForm = z.infer<typeof ReviewForm>;

/** A vote on a SKU review. Shape from recorded answers; the spec does not show it. */
export const SkuReviewVote = record({
  id,
  sku_review_id: num,
  user_id: num,
  helpful: bool,
  created_at: text,
  /** With `embed=sku_review`. */
  sku_review: maybe(SkuReview),
});
export type SkuReviewVote = z.infer<typeof SkuReviewVote>;

/**
 * The answer of `POST /skus/:sku_id/reviews/:review_id/flags`: a bare object,
 * no root key. Shape from recorded answers; the spec does not show it.
 */
export const SkuReviewFlag = record({
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
export type SkuReviewFlag = z.infer<typeof SkuReviewFlag>;

/** `GET /skus/:id/reviews`. Shape from recorded answers; the spec does not show it. */
export const SkuReviewsPage = listPage('reviews', SkuReview, SkuReviewsMeta);
export type SkuReviewsPage = z.infer<typeof SkuReviewsPage>;

/**
 * `POST /skus/:sku_id/reviews` (201), `PUT /skus/:sku_id/reviews/:id`.
 * Shape from recorded answers; the spec does not show it.
 */
export const SkuReviewAnswer = single('sku_review', SkuReview);
export type SkuReviewAnswer = z.infer<typeof SkuReviewAnswer>;

/**
 * `GET /skus/:sku_id/reviews/new`, `GET /skus/:sku_id/reviews/:id/edit`.
 * Shape from recorded answers; the spec does not show it.
 */
export const ReviewFormAnswer = single('review_form', ReviewForm);
export type ReviewFormAnswer = z.infer<typeof ReviewFormAnswer>;

/** `POST /skus/:sku_id/reviews/:id/votes` (201). Shape from recorded answers; the spec does not show it. */
export const SkuReviewVoteAnswer = single('sku_review_vote', SkuReviewVote);
export type SkuReviewVoteAnswer = z.infer<typeof SkuReviewVoteAnswer>;
