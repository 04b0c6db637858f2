/** Books, authors, book categories, publishers, and moderation flags (document 2). */
import type * as z from 'zod/mini';
import { maybe, openEnum, record } from '../common.js';
import { bool, id, listPage, num, Pagination, scalar, single, text } from './base.js';
import { ListMeta } from './categories.js';
import { Images } from './skus.js';

export const Book = record({
  id,
  name: text,
  main_author_id: num,
  main_author: text,
  images: maybe(Images),
  price_min: num,
  price_max: num,
  shop_count: num,
  reviewscore: num,
  reviews_count: num,
  first_product_shop_info: text,
  /** In lists, for requests made with a user token. */
  favorited: bool,
  /** Since 3.2.1. */
  web_url: text,
  /** Since 3.2.1. */
  reviewable: bool,
});
export type Book = z.infer<typeof Book>;

/** The spec lists these fields without types: numbers or strings are accepted where either is plausible. */
export const BookDetails = record({
  series: text,
  cover: text,
  pubyear: scalar,
  pages: scalar,
  isbn: text,
  shape: text,
  volume: scalar,
  ages: scalar,
  description: text,
});
export type BookDetails = z.infer<typeof BookDetails>;

export const Author = record({ id, name: text, bio: text, image: text });
export type Author = z.infer<typeof Author>;

/** A book category. Shape from recorded answers, except `match_count` (in `GET /book_categories/filters?q=`). */
export const BookCategory = record({
  id,
  name: text,
  /** In `GET /book_categories/filters?q=` results. */
  match_count: num,
});
export type BookCategory = z.infer<typeof BookCategory>;

/** `meta` of book category lists. Shape from recorded answers; the spec does not show it. */
export const BookCategoriesMeta = record({
  pagination: maybe(Pagination),
  /** With `GET /book_categories/:id/filters`: the category whose subcategories are listed. */
  ancestor: maybe(BookCategory),
});
export type BookCategoriesMeta = z.infer<typeof BookCategoriesMeta>;

/** A book publisher. Shape from recorded answers; the spec does not show it. */
export const Publisher = record({
  id,
  name: text,
  address: text,
  email: text,
  website: text,
  fax: text,
  phone: text,
});
export type Publisher = z.infer<typeof Publisher>;

/** Known reasons for flagging; others may come (read them from `GET /flags`). */
export const FLAG_REASONS = ['bad_language', 'wrong_section', 'spam'] as const;

export const Flag = record({
  /** The code to give when flagging, e.g. `bad_language`, `wrong_section`, `spam`. */
  reason: maybe(openEnum(FLAG_REASONS)),
  description: text,
});
export type Flag = z.infer<typeof Flag>;

/** `GET /books/:id`. */
export const BookAnswer = single('book', Book);
export type BookAnswer = z.infer<typeof BookAnswer>;

/** `GET /books/:id/details`. */
export const BookDetailsAnswer = single('book_details', BookDetails);
export type BookDetailsAnswer = z.infer<typeof BookDetailsAnswer>;

/**
 * `GET /books/search`, `GET /books/:id/similar_by_author`, `GET /author/:id/books`,
 * and (shapes from recorded answers) `GET /book_categories/:id/books`, `GET /publisher/:id/books`.
 */
export const BooksPage = listPage('books', Book, ListMeta);
export type BooksPage = z.infer<typeof BooksPage>;

/** `GET /author/:id/`. */
export const AuthorAnswer = single('author', Author);
export type AuthorAnswer = z.infer<typeof AuthorAnswer>;

/**
 * `GET /book_categories/filters?q=`, and (shapes from recorded answers)
 * `GET /book_categories`, `GET /book_categories/:id/filters`.
 */
export const BookCategoriesPage = listPage('categories', BookCategory, BookCategoriesMeta);
export type BookCategoriesPage = z.infer<typeof BookCategoriesPage>;

/** `GET /book_categories/:id`. Shape from recorded answers; the spec does not show it. */
export const BookCategoryAnswer = single('category', BookCategory);
export type BookCategoryAnswer = z.infer<typeof BookCategoryAnswer>;

/** `GET /publisher/:id`. Shape from recorded answers; the spec does not show it. */
export const PublisherAnswer = single('publisher', Publisher);
export type PublisherAnswer = z.infer<typeof PublisherAnswer>;

/** `GET /flags`. */
export const FlagsPage = listPage('flags', Flag);
export type FlagsPage = z.infer<typeof FlagsPage>;
