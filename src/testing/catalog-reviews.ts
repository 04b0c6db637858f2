/**
 * The mock catalog's SKU reviews: the listing, the review form, writing, editing and deleting the
 * account user's own reviews, votes and flags.
 */
import type { CatalogData, Json } from './catalog-data.js';
import type { CoreContext } from './context.js';
import { paginate } from './paginate.js';
import type { Route, RouteContext } from './router.js';
import { copy, fail, json, readJsonBody, timestamp } from './wire.js';

/** The account token's user (account.ts): the author of reviews written through the API. */
const REVIEWER_ID = 334_941;
/**
 * The review form: answer ids as recorded, so a recorded request body works as is. Choosing
 * an `eval_sentiment` answer adds its `sentiment` label to the review's positive, mediocre or
 * negative sentiments (Yes, So-so, No).
 */
const REVIEW_QUESTIONS = [
  { text: 'How do you use your phone?', type: 'profiling_multiple', sentiment: '', answers: [[546, 'Calls'], [547, 'Social media'], [548, 'Photos and video'], [549, 'Browsing']] },
  { text: 'Is it fast in use?', type: 'eval_sentiment', sentiment: 'Speed', answers: [[555, 'Yes'], [556, 'So-so'], [557, 'No']] },
  { text: 'Is it worth its price?', type: 'eval_sentiment', sentiment: 'Value for money', answers: [[561, 'Yes'], [562, 'So-so'], [563, 'No']] },
  { text: 'Does its screen have a good resolution?', type: 'eval_sentiment', sentiment: 'Screen resolution', answers: [[3944, 'Yes'], [3945, 'So-so'], [3946, 'No']] },
] as const;
const SENTIMENT_KEYS = ['positive', 'mediocre', 'negative'] as const;
export const FLAGS = [
  { reason: 'bad_language', description: 'Offensive language' },
  { reason: 'wrong_section', description: 'Posted in the wrong section' },
  { reason: 'spam', description: 'Spam or advertising' },
];

export function createReviewRoutes(core: CoreContext, data: CatalogData) {
  const { reviewsBySku, findSku, notFound } = data;
  /** Answer ids of the reviews written through the API, for the edit form. */
  const reviewAnswers = new Map<number, number[]>();
  let nextVoteId = 500_001;

  const ratingBreakdown = (ratings: number[]) =>
    [5, 4, 3, 2, 1].map((star) => {
      const count = ratings.filter((r) => r === star).length;
      return { star, percentage: ratings.length ? Math.round((count / ratings.length) * 100) : 0, count };
    });

  const skuReviews = ({ url, params }: RouteContext) => {
    const sku = findSku(params.id);
    const reviews = reviewsBySku.get(sku.id) ?? [];
    const wanted = (url.searchParams.get('include_meta') ?? '').split(',');
    const meta: Json = {};
    if (wanted.includes('sku_rating_breakdown')) meta.sku_rating_breakdown = ratingBreakdown(reviews.map((r) => Number(r.rating)));
    if (wanted.includes('sku_reviews_aggregation')) meta.sku_reviews_aggregation = [{ label: 'Value for money', score: 90, style: 'good' }];
    return paginate(url, 'reviews', reviews, meta);
  };

  const reviewForm = (chosen: readonly number[] = []) => ({
    requires_body: false,
    questions: REVIEW_QUESTIONS.map(({ text, type, answers }) => ({
      text,
      type,
      answers: answers.map(([id, label]) => (chosen.includes(id) ? { id, text: label, selected: true } : { id, text: label })),
    })),
  });
  const sentimentsOf = (answerIds: readonly number[]) => {
    const sentiments: Record<string, string[]> = {};
    for (const question of REVIEW_QUESTIONS) {
      if (question.type !== 'eval_sentiment') continue;
      const index = question.answers.findIndex(([id]) => answerIds.includes(id));
      const key = SENTIMENT_KEYS[index];
      if (key) sentiments[key] = [...(sentiments[key] ?? []), question.sentiment];
    }
    return sentiments;
  };
  const knownAnswers = new Set<number>(REVIEW_QUESTIONS.flatMap((q) => q.answers.map(([id]) => id)));
  /** Checks the fields present in `{ review: {...} }`; all problems in one 422, as the service's validation errors. */
  const reviewFields = async (request: Request, requireRating: boolean) => {
    const fields = (await readJsonBody(request)).review;
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return fail(400, 'InvalidParameter', 'review is required');
    const { rating, review, answer_ids: answerIds } = fields as Json;
    const problems: string[] = [];
    if ((rating !== undefined || requireRating) && !(Number.isInteger(rating) && (rating as number) >= 1 && (rating as number) <= 5)) {
      problems.push('Rating must be an integer from 1 to 5');
    }
    if (review !== undefined && review !== null && typeof review !== 'string') problems.push('Review must be text');
    if (answerIds !== undefined && !(Array.isArray(answerIds) && answerIds.every((id) => knownAnswers.has(id)))) {
      problems.push('Answer ids must be ids of the review form\'s answers');
    }
    if (problems.length) fail(422, 'InvalidReview', ...problems);
    return { rating: rating as number | undefined, review: review as string | null | undefined, answerIds: answerIds as number[] | undefined };
  };
  /** The user's own review of a SKU (another user's review is not found, as the service scopes writes to the user). */
  const ownReview = (skuRaw?: string, reviewRaw?: string) => {
    const sku = findSku(skuRaw);
    const list = reviewsBySku.get(sku.id) ?? [];
    const review = list.find((r) => r.id === Number(reviewRaw) && r.user_id === REVIEWER_ID);
    return review ? { sku, list, review } : notFound('SkuReview', reviewRaw ?? '');
  };
  /** A written review as the create and update answers carry it (no per-user voted/flagged/helpful). */
  const writtenView = ({ voted: _v, flagged: _f, helpful: _h, ...rest }: Json) => rest;

  /** The listing and the user's own reviews, in the catalog's route order. */
  const reviewRoutes: Route[] = [
    { method: 'GET', pattern: '/skus/:id/reviews', api: 'catalog', handler: skuReviews },
    {
      method: 'GET',
      pattern: '/skus/:id/reviews/new',
      api: 'account',
      handler: ({ params }) => {
        findSku(params.id);
        return json(200, { review_form: reviewForm() });
      },
    },
    {
      method: 'GET',
      pattern: '/skus/:id/reviews/:reviewId/edit',
      api: 'account',
      handler: ({ params }) => {
        const { review } = ownReview(params.id, params.reviewId);
        const { requires_body, questions } = reviewForm(reviewAnswers.get(review.id as number));
        return json(200, { review_form: { requires_body, rating: review.rating, review: review.review, questions } });
      },
    },
    {
      method: 'POST',
      pattern: '/skus/:id/reviews',
      api: 'account',
      handler: async ({ request, params }) => {
        const sku = findSku(params.id);
        const fields = await reviewFields(request, true);
        const review: Json = {
          id: data.nextReviewId(),
          sku_id: sku.id,
          user_id: REVIEWER_ID,
          review: fields.review ?? null,
          rating: fields.rating,
          created_at: timestamp(core.now()),
          demoted: false,
          votes_count: 0,
          helpful_votes_count: 0,
          voted: false,
          flagged: false,
          helpful: false,
          sentiments: sentimentsOf(fields.answerIds ?? []),
        };
        reviewAnswers.set(review.id as number, fields.answerIds ?? []);
        // Most recent first (document 2, 3.0.2).
        reviewsBySku.get(sku.id)?.unshift(review);
        sku.reviews_count = Number(sku.reviews_count) + 1;
        return json(201, { sku_review: writtenView(review) });
      },
    },
    {
      method: 'PUT',
      pattern: '/skus/:id/reviews/:reviewId',
      api: 'account',
      handler: async ({ request, params }) => {
        const { review } = ownReview(params.id, params.reviewId);
        const fields = await reviewFields(request, false);
        if (fields.rating !== undefined) review.rating = fields.rating;
        if (fields.review !== undefined) review.review = fields.review;
        if (fields.answerIds !== undefined) {
          reviewAnswers.set(review.id as number, fields.answerIds);
          review.sentiments = sentimentsOf(fields.answerIds);
        }
        return json(200, { sku_review: writtenView(review) });
      },
    },
    {
      method: 'DELETE',
      pattern: '/skus/:id/reviews/:reviewId',
      api: 'account',
      handler: ({ params }) => {
        const { sku, list, review } = ownReview(params.id, params.reviewId);
        list.splice(list.indexOf(review), 1);
        reviewAnswers.delete(review.id as number);
        sku.reviews_count = Math.max(0, Number(sku.reviews_count) - 1);
        return new Response(null, { status: 204 });
      },
    },
  ];

  /** Votes and flags on a review. */
  const feedbackRoutes: Route[] = [
    {
      method: 'POST',
      pattern: '/skus/:id/reviews/:reviewId/votes',
      api: 'account',
      handler: async ({ request, url, params }) => {
        const review = (reviewsBySku.get(findSku(params.id).id) ?? []).find((r) => r.id === Number(params.reviewId));
        if (!review) return notFound('SkuReview', params.reviewId ?? '');
        const body = await readJsonBody(request);
        const helpful = (body.vote as { helpful?: unknown } | undefined)?.helpful ?? url.searchParams.get('vote') === 'true';
        if (typeof helpful !== 'boolean') fail(400, 'InvalidParameter', 'vote.helpful must be a boolean');
        review.votes_count = Number(review.votes_count) + 1;
        if (helpful) review.helpful_votes_count = Number(review.helpful_votes_count) + 1;
        const vote: Json = { id: nextVoteId++, sku_review_id: review.id, user_id: 1, helpful, created_at: timestamp(core.now()) };
        if ((url.searchParams.get('embed') ?? '').split(',').includes('sku_review')) vote.sku_review = copy(review);
        return json(201, { sku_review_vote: vote });
      },
    },
    {
      method: 'POST',
      pattern: '/skus/:id/reviews/:reviewId/flags',
      api: 'account',
      handler: async ({ request, params }) => {
        const review = (reviewsBySku.get(findSku(params.id).id) ?? []).find((r) => r.id === Number(params.reviewId));
        if (!review) return notFound('SkuReview', params.reviewId ?? '');
        const body = await readJsonBody(request);
        const reason = (body.flag as { reason?: unknown } | undefined)?.reason;
        if (!FLAGS.some((f) => f.reason === reason)) fail(422, 'InvalidFlag', `reason must be one of ${FLAGS.map((f) => f.reason).join(', ')}`);
        const at = timestamp(core.now());
        return json(201, { id: nextVoteId++, flaggable_id: review.id, flaggable_type: 'SkuReview', user_id: 1, reason, created_at: at, updated_at: at });
      },
    },
  ];

  return { reviewRoutes, feedbackRoutes };
}
