CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"uploaded_by" integer,
	"original_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"invoice_number" text,
	"document_date" date,
	"business_name" text,
	"business_address" text,
	"vat_number" text,
	"iban" text,
	"currency" text,
	"has_vat" boolean,
	"total_vat_amount" numeric(14, 2),
	"total_charge_excluding_vat" numeric(14, 2),
	"total_invoice_including_vat" numeric(14, 2),
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_reason" text,
	"pages" integer,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "documents_kind_check" CHECK ("documents"."kind" in ('invoice', 'expense', 'document')),
	CONSTRAINT "documents_status_check" CHECK ("documents"."status" in ('PROCESSING', 'COMPLETED', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"document_id" integer,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"category" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "logs_type_check" CHECK ("logs"."type" in ('Invoice', 'Expense', 'Document')),
	CONSTRAINT "logs_status_check" CHECK ("logs"."status" in ('pending', 'processing', 'completed', 'failed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logs" ADD CONSTRAINT "logs_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_company_kind_idx" ON "documents" USING btree ("company_id","kind","id");--> statement-breakpoint
CREATE INDEX "documents_company_sha256_idx" ON "documents" USING btree ("company_id","sha256");--> statement-breakpoint
CREATE INDEX "documents_company_invoice_number_idx" ON "documents" USING btree ("company_id","invoice_number");--> statement-breakpoint
CREATE INDEX "documents_status_idx" ON "documents" USING btree ("status");--> statement-breakpoint
CREATE INDEX "logs_company_created_idx" ON "logs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "logs_document_id_idx" ON "logs" USING btree ("document_id");