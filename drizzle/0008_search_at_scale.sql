-- Search at 100k projects (issue 13); see src/server/services/search.ts.
-- Every CJK character and pair of adjacent characters of a text, as a tsvector without positions:
-- what finds a CJK run of any length through a GIN index (pg_trgm needs three characters, and
-- rechecks every row it finds). The character class is CJK_RANGES of src/lib/cjk.ts.
CREATE OR REPLACE FUNCTION cjk_grams(doc text) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(substr(run, i, 1)) || array_agg(substr(run, i, 2)) FILTER (WHERE i < length(run))), ''::tsvector)
  FROM regexp_matches(doc, '[\u1100-\u11ff\u2e80-\u2e99\u2e9b-\u2ef3\u2f00-\u2fd5\u3005\u3007\u3021-\u3029\u302e-\u302f\u3038-\u303b\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fd-\u30ff\u3131-\u318e\u31f0-\u321e\u3260-\u327e\u32d0-\u32fe\u3300-\u3357\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uf900-\ufa6d\ufa70-\ufad9\uff66-\uff6f\uff71-\uff9d\uffa0-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc\U00016fe2-\U00016fe3\U00016ff0-\U00016ff6\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd-\U0001affe\U0001b000-\U0001b122\U0001b132\U0001b150-\U0001b152\U0001b155\U0001b164-\U0001b167\U0001f200\U00020000-\U0002a6df\U0002a700-\U0002b81d\U0002b820-\U0002cead\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d\U00030000-\U0003134a\U00031350-\U00033479]+', 'g') AS m(parts), LATERAL (SELECT parts[1] AS run) AS r, LATERAL generate_series(1, length(run)) AS i
$$;
--> statement-breakpoint
DROP INDEX "projects_search_trgm_idx";
--> statement-breakpoint
ALTER TABLE "projects"
  ADD COLUMN "search_cjk" text GENERATED ALWAYS AS (btrim(regexp_replace("projects"."title" || ' ' || "projects"."summary" || ' ' || "projects"."search_text", '[^\u1100-\u11ff\u2e80-\u2e99\u2e9b-\u2ef3\u2f00-\u2fd5\u3005\u3007\u3021-\u3029\u302e-\u302f\u3038-\u303b\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fd-\u30ff\u3131-\u318e\u31f0-\u321e\u3260-\u327e\u32d0-\u32fe\u3300-\u3357\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97c\uac00-\ud7a3\ud7b0-\ud7c6\ud7cb-\ud7fb\uf900-\ufa6d\ufa70-\ufad9\uff66-\uff6f\uff71-\uff9d\uffa0-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc\U00016fe2-\U00016fe3\U00016ff0-\U00016ff6\U0001aff0-\U0001aff3\U0001aff5-\U0001affb\U0001affd-\U0001affe\U0001b000-\U0001b122\U0001b132\U0001b150-\U0001b152\U0001b155\U0001b164-\U0001b167\U0001f200\U00020000-\U0002a6df\U0002a700-\U0002b81d\U0002b820-\U0002cead\U0002ceb0-\U0002ebe0\U0002ebf0-\U0002ee5d\U0002f800-\U0002fa1d\U00030000-\U0003134a\U00031350-\U00033479]+', ' ', 'g'))) STORED,
  ADD COLUMN "search_grams" "tsvector" GENERATED ALWAYS AS (cjk_grams("projects"."title" || ' ' || "projects"."summary" || ' ' || "projects"."search_text")) STORED,
  ADD COLUMN "title_terms" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "projects"."title") || cjk_grams("projects"."title")) STORED,
  -- What search reads row by row stays in the row (compressed if need be): the descriptions,
  -- search_text and search_grams (read through its index) go out of line first. ADD COLUMN
  -- rewrites the table once, so existing rows are stored this way too.
  ALTER COLUMN "title" SET STORAGE MAIN,
  ALTER COLUMN "summary" SET STORAGE MAIN,
  ALTER COLUMN "search_vector" SET STORAGE MAIN,
  ALTER COLUMN "search_cjk" SET STORAGE MAIN;
--> statement-breakpoint
CREATE INDEX "projects_search_grams_idx" ON "projects" USING gin ("search_grams") WHERE "projects"."status" = 'published';
--> statement-breakpoint
CREATE INDEX "projects_title_terms_idx" ON "projects" USING gin ("title_terms") WHERE "projects"."status" = 'published';
--> statement-breakpoint
CREATE INDEX "projects_search_stars_idx" ON "projects" USING btree ("star_count" DESC NULLS FIRST,"published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "projects"."status" = 'published';
--> statement-breakpoint
-- Statistics for the new columns now: search reads the planner's estimates and lexeme frequencies.
ANALYZE "projects";
