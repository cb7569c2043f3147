import type { FastifyRequest } from 'fastify';
import {
  isLanguage,
  LANGUAGE_COOKIE,
  pageLanguageOf,
  wordsOf,
  type PageContext,
} from '../pages/index.js';

/**
 * The answer page's language: the visitor's own switch (the pages' language cookie), else the
 * language the flow's creator gave the person, else the browser's, else Danish. Not a member's
 * account language: whoever opens a flow's link answers as the person it was sent to.
 */
export function flowPage(
  request: FastifyRequest,
  page: PageContext,
  recipientLanguage: string | null | undefined,
): PageContext {
  const cookie = request.cookies[LANGUAGE_COOKIE];
  const language = isLanguage(cookie)
    ? cookie
    : pageLanguageOf({
        account: isLanguage(recipientLanguage) ? recipientLanguage : undefined,
        accept: request.headers['accept-language'],
      });
  return language === page.language ? page : { ...page, language, words: wordsOf(language) };
}
