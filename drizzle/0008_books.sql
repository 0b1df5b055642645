CREATE TABLE "books" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"title" text NOT NULL,
	"authors" text[] DEFAULT '{}'::text[] NOT NULL,
	"isbn" text,
	"isbn13" text,
	"published_year" integer,
	"language" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"cover_url" text,
	"description" text DEFAULT '' NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "books_organization_isbn13_idx" ON "books" USING btree ("organization_id","isbn13") WHERE "books"."deleted_at" is null and "books"."isbn13" is not null;--> statement-breakpoint
CREATE INDEX "books_organization_created_idx" ON "books" USING btree ("organization_id","created_at","id") WHERE "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_organization_title_idx" ON "books" USING btree ("organization_id",lower("title"),"id") WHERE "books"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "books_deleted_at_idx" ON "books" USING btree ("deleted_at") WHERE "books"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "books_tags_idx" ON "books" USING gin ("tags");