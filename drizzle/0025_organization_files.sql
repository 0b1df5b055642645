CREATE TABLE "organization_files" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"book_id" text,
	"kind" text NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bigint NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_files" ADD CONSTRAINT "organization_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_files" ADD CONSTRAINT "organization_files_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_files" ADD CONSTRAINT "organization_files_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "organization_files_organization_idx" ON "organization_files" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "organization_files_book_idx" ON "organization_files" USING btree ("book_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_files_cover_idx" ON "organization_files" USING btree ("book_id") WHERE "organization_files"."kind" = 'cover';--> statement-breakpoint
CREATE INDEX "organization_files_orphans_idx" ON "organization_files" USING btree ("id") WHERE "organization_files"."book_id" is null;