DROP TABLE "boards" CASCADE;--> statement-breakpoint
DROP TABLE "bom_lines" CASCADE;